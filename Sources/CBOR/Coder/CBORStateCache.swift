import Synchronization

/// One spare encoder or decoder state, kept between calls so that a small encode or decode does not allocate a
/// state and its stacks each time.
///
/// Whoever takes the state owns it (an atomic exchange); it is put back only when nothing else holds it (a
/// container kept past its value would), so a reused state is never shared.
final class CBORStateCache<State: AnyObject>: Sendable {
    /// The spare state's address (a retained reference), or 0. An integer because pointers are not `Sendable`.
    private let slot = Atomic<UInt>(0)

    /// The spare state, if there is one; the caller owns it.
    func take() -> State? {
        UnsafeMutableRawPointer(bitPattern: slot.exchange(0, ordering: .acquiring)).map {
            Unmanaged<State>.fromOpaque($0).takeRetainedValue()
        }
    }

    /// Keeps `state` as the spare if there is none and nothing else references it.
    func giveBack(_ state: inout State) {
        guard isKnownUniquelyReferenced(&state) else { return }
        let pointer = Unmanaged.passRetained(state).toOpaque()
        if !slot.compareExchange(expected: 0, desired: UInt(bitPattern: pointer), ordering: .releasing).exchanged {
            Unmanaged<State>.fromOpaque(pointer).release()
        }
    }

    deinit {
        if let pointer = UnsafeMutableRawPointer(bitPattern: slot.exchange(0, ordering: .acquiring)) {
            Unmanaged<State>.fromOpaque(pointer).release()
        }
    }
}

/// The spare state of ``CBOREncoder``.
let encodingStateCache = CBORStateCache<CBOREncodingState>()
/// The spare state of ``CBORDecoder``.
let decodingStateCache = CBORStateCache<CBORDecodingState>()
