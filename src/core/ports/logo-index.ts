/** The printing role of the journal index: the logo in force (ADR 0509). */
export interface LogoIndex {
  /** Record number of the `logo` record in force; undefined when none or removed. */
  currentLogo?(): number | undefined;
}
