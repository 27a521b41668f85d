import TransferImaging
import TransferKitPlatform

/// The memory that image conversions running at the same time may hold together, shared by every image converter of
/// the process (``TransferConverter/imageMemoryBudget`` sets its size).
///
/// A conversion reserves what it will hold (see ``TransferConverter/imageConverters``) before it decodes and gives
/// it back when it ends. A streaming conversion, the way providers, the clipboard and `convert-type` run converters,
/// waits its turn in order of arrival; the synchronous `convert(_:)` cannot wait and fails when the budget is in use.
/// An image that needs more than the whole budget fails at once with `ImagingError` `limitExceeded`.
final class ImageMemoryBudget: Sendable {
    /// The process's budget, which the built-in image converters share.
    static let shared = ImageMemoryBudget(limit: defaultLimit)

    /// 1.5 GiB: one image at the decoders' limit (64 Mi pixels, 768 MiB reserved) with an input of up to 768 MiB, or
    /// several smaller images.
    static let defaultLimit = 1536 << 20

    private let books: SanitizedMutex<Books<CheckedContinuation<Void, any Error>>>
    /// Who waits for a number of waiting conversions (``waitUntilWaiting(atLeast:)``).
    private let watchers = SanitizedMutex<[(count: Int, latch: Latch<Void>)]>([])

    /// A budget of `limit` bytes.
    init(limit: Int) {
        books = SanitizedMutex(Books(limit: max(0, limit)))
    }

    /// The most bytes reserved at once.
    var limit: Int {
        get { books.withLock { $0.limit } }
        set {
            let resumed = books.withLock { $0.setLimit(max(0, newValue)) }
            for (continuation, result) in resumed { continuation.resume(with: result) }
        }
    }

    /// The bytes reserved now, the most reserved so far, and how many conversions wait (for tests and diagnostics).
    var usage: (reserved: Int, peak: Int, waiting: Int) {
        books.withLock { ($0.reserved, $0.peak, $0.queue.count) }
    }

    /// Returns once at least `count` conversions wait their turn, or the task is cancelled (for tests, which then
    /// need no poll).
    func waitUntilWaiting(atLeast count: Int) async {
        let latch = Latch<Void>()
        watchers.withLock { $0.append((count, latch)) }
        openSatisfiedWatchers()
        _ = await latch.wait()
    }

    /// Opens the latches of ``waitUntilWaiting(atLeast:)`` whose count of waiting conversions is reached.
    private func openSatisfiedWatchers() {
        let waiting = books.withLock { $0.queue.count }
        let satisfied = watchers.withLock { watchers in
            let satisfied = watchers.filter { $0.count <= waiting }.map(\.latch)
            watchers.removeAll { $0.count <= waiting }
            return satisfied
        }
        for latch in satisfied { latch.open() }
    }

    /// Reserves `bytes`, waiting for conversions ahead to give theirs back.
    ///
    /// - Throws: `ImagingError` `limitExceeded` when `bytes` is more than the whole budget; `CancellationError` when
    ///   the task is cancelled while it waits.
    func reserve(_ bytes: Int) async throws {
        let ticket = books.withLock { $0.newTicket() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let action = books.withLock { $0.request(ticket: ticket, bytes: bytes, continuation: continuation) }
                switch action {
                case .granted: continuation.resume()
                case .refused(let limit): continuation.resume(throwing: Self.refusal(bytes, limit: limit))
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waits: openSatisfiedWatchers()
                }
            }
        } onCancel: {
            let continuation = books.withLock { $0.cancel(ticket: ticket) }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Reserves `bytes` if they are free now.
    ///
    /// - Throws: `ImagingError` `limitExceeded` when they are not.
    func reserveNow(_ bytes: Int) throws(ImagingError) {
        let granted = books.withLock { $0.requestNow(bytes: bytes) }
        guard granted else {
            let (limit, reserved) = books.withLock { ($0.limit, $0.reserved) }
            throw bytes > limit
                ? Self.refusal(bytes, limit: limit)
                : ImagingError(
                    code: .limitExceeded,
                    message: "an image conversion needs \(bytes) bytes and \(reserved) of the \(limit) of the image "
                        + "memory budget are in use; the synchronous convert(_:) does not wait (a stream does)")
        }
    }

    /// Gives back `bytes` reserved before.
    func release(_ bytes: Int) {
        let resumed = books.withLock { $0.release(bytes) }
        for continuation in resumed { continuation.resume() }
    }

    private static func refusal(_ bytes: Int, limit: Int) -> ImagingError {
        ImagingError(
            code: .limitExceeded,
            message: "an image conversion needs \(bytes) bytes, more than the image memory budget of \(limit) "
                + "(TransferConverter.imageMemoryBudget)")
    }

    /// What is reserved and who waits, in order of arrival; the methods say whom to resume, the class resumes
    /// them outside the lock. Generic over the waiter so that tests can drive it with plain values.
    struct Books<Waiter> {
        enum Admission {
            case granted
            case refused(limit: Int)
            case cancelled
            case waits
        }

        var limit: Int
        var reserved = 0
        var peak = 0
        var queue: [(ticket: UInt64, bytes: Int, waiter: Waiter)] = []
        private var nextTicket: UInt64 = 0
        /// Tickets cancelled before they were queued.
        private var cancelledEarly: Set<UInt64> = []

        init(limit: Int) { self.limit = limit }

        mutating func newTicket() -> UInt64 {
            nextTicket += 1
            return nextTicket
        }

        mutating func request(ticket: UInt64, bytes: Int, continuation: Waiter) -> Admission {
            if cancelledEarly.remove(ticket) != nil { return .cancelled }
            guard bytes <= limit else { return .refused(limit: limit) }
            if queue.isEmpty, requestNow(bytes: bytes) { return .granted }
            queue.append((ticket, bytes, continuation))
            return .waits
        }

        mutating func requestNow(bytes: Int) -> Bool {
            guard bytes <= limit - reserved else { return false }
            reserved += bytes
            peak = max(peak, reserved)
            return true
        }

        mutating func cancel(ticket: UInt64) -> Waiter? {
            guard let index = queue.firstIndex(where: { $0.ticket == ticket }) else {
                cancelledEarly.insert(ticket)
                return nil
            }
            return queue.remove(at: index).waiter
        }

        mutating func release(_ bytes: Int) -> [Waiter] {
            reserved = max(0, reserved - bytes)
            return admitWaiting()
        }

        /// A new limit: waiters that now fit are admitted, those larger than the whole budget are refused.
        mutating func setLimit(_ newLimit: Int) -> [(Waiter, Result<Void, any Error>)] {
            limit = newLimit
            var resumed: [(Waiter, Result<Void, any Error>)] = []
            queue.removeAll { entry in
                guard entry.bytes > newLimit else { return false }
                resumed.append((entry.waiter, .failure(ImageMemoryBudget.refusal(entry.bytes, limit: newLimit))))
                return true
            }
            return resumed + admitWaiting().map { ($0, .success(())) }
        }

        /// The waiters at the head of the queue that fit now; strict order, so a large image is not starved.
        private mutating func admitWaiting() -> [Waiter] {
            var admitted: [Waiter] = []
            while let first = queue.first, requestNow(bytes: first.bytes) {
                admitted.append(queue.removeFirst().waiter)
            }
            return admitted
        }
    }
}
