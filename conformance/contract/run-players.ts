import { signIn, type SignedIn } from '../fixtures/players.js';
import type { SignInContext } from '../fixtures/suite.js';
import { runStateCommand } from './state-command.js';

/**
 * The players of a recording's run: one of the run's own for each player the recording held, signed in when its
 * first request comes (the usual OTP sources), `--state-command` run for each at `player-made`.
 */
export class RunPlayers {
  readonly #context: SignInContext;
  readonly #stateCommand: string | undefined;
  readonly #players: SignedIn[] = [];

  constructor(context: SignInContext, stateCommand: string | undefined) {
    this.#context = context;
    this.#stateCommand = stateCommand;
  }

  /** The run's player standing for the recording's player `index` (from 0), and each before it. */
  async player(index: number): Promise<SignedIn> {
    while (this.#players.length <= index) {
      const player = await signIn(this.#context);
      console.log(`Signed in a player of the run's own: ${player.email}`);
      if (this.#stateCommand !== undefined) await runStateCommand(this.#stateCommand, { point: 'player-made', baseUrl: this.#context.config.baseUrl, player });
      this.#players.push(player);
    }
    return this.#players[index]!;
  }
}
