import TransferKitPlatform
import UniformTypes

/// The progress of a transfer: unit counts, a fraction, finished and cancelled states, child progress, and
/// observation without polling.
///
/// `TransferProgress` plays the role of Foundation's `Progress` for TransferKit. It is `Sendable`, works the same on
/// Linux and Apple platforms, and is observed through an `AsyncSequence` of ``Snapshot`` values (``updates``) instead
/// of key-value observing, which Linux Foundation lacks.
///
/// A loader reports its work per chunk; a caller watches or cancels:
///
/// ```swift
/// let progress = TransferProgress(totalUnitCount: 10)
/// let watcher = Task {
///     for await snapshot in progress.updates {
///         print("\(Int(snapshot.fractionCompleted * 100)) %")
///     }   // ends after the finished (or cancelled) snapshot
/// }
/// for chunk in chunks {
///     try progress.checkCancellation()
///     write(chunk)
///     progress.advance()          // one uncontended lock: cheap enough for every chunk
/// }
/// progress.finish()
/// await watcher.value
/// ```
///
/// ## Trees
/// A progress can stand for part of a larger one: ``addChild(_:withPendingUnitCount:)`` and
/// ``makeChild(withPendingUnitCount:totalUnitCount:)`` attach a child that counts for a number of the parent's units.
/// The parent's ``fractionCompleted`` includes the partial work of its children; when a child finishes, its pending
/// units are added to the parent's ``completedUnitCount`` and the child is detached. The parent owns its children; a
/// child refers to its parent weakly, so a tree never forms a reference cycle.
///
/// ## Cost
/// An update (``advance(by:)``, setting a count) takes this node's lock once and does not allocate. It touches the
/// parent only when an observer of an ancestor is waiting for a change, once per such wait; a parent computes its
/// fraction from its children when it is read. Observers are woken, not sent every value: however many updates happen
/// while an observer is busy, it sees the latest state once.
///
/// ## Threads
/// Cancellation handlers run synchronously on the thread that calls ``cancel()`` (or in ``onCancel(_:)`` if the
/// progress is already cancelled), after the lock is released. Observers resume on their own task's executor.
public final class TransferProgress: Sendable {
    let state: SanitizedMutex<StateMachine>

    /// Creates a progress with no children.
    ///
    /// - Parameter totalUnitCount: The units of work to do. Zero or negative means the total is not known yet: the
    ///   progress is indeterminate until ``totalUnitCount`` is set to a positive value.
    public init(totalUnitCount: Int64 = 0) {
        state = SanitizedMutex(StateMachine(totalUnitCount: totalUnitCount))
    }

    /// The units of work to do; zero or negative while unknown (see ``isIndeterminate``).
    ///
    /// Setting it wakes observers. Completed units at or above a positive total make the progress finished.
    public var totalUnitCount: Int64 {
        get { state.withLock { $0.totalUnitCount } }
        set { perform(state.withLock { $0.setTotalUnitCount(newValue) }) }
    }

    /// The units of work done, including the pending units of children that have finished.
    ///
    /// Setting it replaces the count. To add units from several threads, use ``advance(by:)``: `completedUnitCount +=
    /// n` reads and writes in two steps and can lose a concurrent update.
    public var completedUnitCount: Int64 {
        get { state.withLock { $0.completedUnitCount } }
        set { perform(state.withLock { $0.setCompletedUnitCount(newValue) }) }
    }

    /// Adds units to ``completedUnitCount`` atomically: the call to make once per chunk.
    ///
    /// It takes this node's lock once and allocates nothing. It resumes observers of this progress only if one is
    /// waiting, and notifies the parent only if an observer of an ancestor is waiting (or when the progress becomes
    /// finished). The sum saturates instead of overflowing.
    ///
    /// ```swift
    /// let progress = TransferProgress(totalUnitCount: Int64(data.count))
    /// for start in stride(from: 0, to: data.count, by: 65_536) {
    ///     let chunk = data[start..<min(start + 65_536, data.count)]
    ///     try await sink.write(chunk)
    ///     progress.advance(by: Int64(chunk.count))
    /// }
    /// ```
    ///
    /// - Parameter units: The units just completed; negative values take units back.
    public func advance(by units: Int64 = 1) {
        perform(state.withLock { $0.advance(by: units) })
    }

    /// Whether the total is not known yet: ``totalUnitCount`` is zero or negative and the progress is not finished.
    public var isIndeterminate: Bool {
        state.withLock { $0.totalUnitCount <= 0 && !$0.isFinished }
    }

    /// Whether the work is done: ``completedUnitCount`` reached a positive ``totalUnitCount``, or ``finish()`` was
    /// called.
    public var isFinished: Bool {
        state.withLock { $0.isFinished }
    }

    /// Marks the work as done: ``completedUnitCount`` becomes ``totalUnitCount`` (if it was lower) and
    /// ``isFinished`` becomes `true`, even for an indeterminate progress.
    ///
    /// A loader calls it when it has delivered everything. Observers see a finished snapshot and their sequences end;
    /// the parent counts this progress's pending units as completed; children still attached are let go, since a
    /// finished progress reports a fraction of 1 whatever they do.
    public func finish() {
        perform(state.withLock { $0.finish() })
    }

    /// Runs what a state change asked for, now that the lock is released.
    func perform(_ action: consuming StateMachine.ChangeAction) {
        for waiter in action.waiters {
            waiter.continuation.resume()
        }
        switch action.parent {
        case nil:
            break
        case .changed(let parent):
            parent.childDidChange()
        case .finished(let parent):
            parent.childDidFinish(self)
        }
    }
}
