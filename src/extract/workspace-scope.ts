/** A resolved `--workspace` filter: the membership filter and payload I/O boundary of a run. */
export interface WorkspaceScope {
  /** The normalized path the filter resolved to. */
  workspacePath: string;
  matchKind: 'exact' | 'unique-suffix';
}
