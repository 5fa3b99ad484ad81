/** The transform stage's output and the load stage's input: all rows of one session. */
import type {
  FileEditRow,
  MessageRow,
  RowProvenanceRow,
  SessionRow,
  SourceInstanceRow,
  ToolCallRow,
  UsageRow,
} from '../../schemas/tables.js';
import type { Diagnostic } from '../shared/diagnostic.js';

export interface NormalizedSession {
  session: SessionRow;
  messages: MessageRow[];
  toolCalls: ToolCallRow[];
  sourceInstances: SourceInstanceRow[];
  /** Where each message and tool call was read (not part of the view digest). */
  rowProvenance: RowProvenanceRow[];
  /** The file changes its tool calls and code blocks hold (not part of the view digest). */
  fileEdits: FileEditRow[];
  /** Token and model facts per message or request (in the view digest only when there are any). */
  usage: UsageRow[];
  diagnostics: Diagnostic[];
  /** Source keys this session's view depends on (sync ledger). */
  sourceKeys: string[];
}
