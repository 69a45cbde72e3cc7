import Logging
import Synchronization

/// A store that opened but cannot be written (read-only, a full disk) loses what the exchanges bring: each
/// failed write is logged in full at debug level, and the recorder tells it once, as one plain line
/// (`StoreWriteFailure`): to `onWriteFailure` when it was given one, otherwise to the error log. A command's
/// recorder lives as long as the command, so a command says it once however many exchanges it loses.
extension ExchangeRecorder {
    /// Logs a failed write of `what` (SQLite's message and statement, at debug level) and returns it as a
    /// `StoreWriteFailure` of `store`.
    func writeFailed(_ error: any Error, store: InspectorStore, what: @autoclosure () -> String) -> StoreWriteFailure {
        logger.debug("inspector: cannot write \(what()): \(error)")
        return StoreWriteFailure(path: store.path, error: error)
    }

    /// Tells `failure`, unless this recorder has told one already.
    func tell(_ failure: StoreWriteFailure) {
        let first = writeFailureTold.withLock { told in
            defer { told = true }
            return !told
        }
        guard first else { return }
        if let onWriteFailure {
            onWriteFailure(failure)
        } else {
            logger.error("inspector: not recorded: \(failure)")
        }
    }
}
