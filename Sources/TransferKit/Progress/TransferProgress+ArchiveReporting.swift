public import TransferArchive

extension TransferProgress: TransferArchiveProgressReporting {
    /// Sets the total to `byteCount` unless the progress already has one.
    public func willTransfer(byteCount: UInt64) {
        if totalUnitCount <= 0 {
            totalUnitCount = Int64(clamping: byteCount)
        }
    }

    /// Advances by `byteCount`.
    public func didTransfer(byteCount: Int) {
        advance(by: Int64(byteCount))
    }
}
