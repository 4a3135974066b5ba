/** A check as the suite declares it, without a target: its rule and title. */
export interface DeclaredCheck {
  rule: string;
  title: string;
}
