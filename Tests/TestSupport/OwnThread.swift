import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` on a thread of its own and returns its result.
///
/// The test pool has as many threads as the machine has cores (two here). A test that does seconds of synchronous
/// work on it, many times longer under the thread sanitizer, holds one of them all that time, and the other suites'
/// sessions, deadlines and servers wait for the one left: run such work here instead.
public func onThreadOfItsOwn<Value: Sendable>(
    _ body: @escaping @Sendable () throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// Whether this process runs with the thread sanitizer (`swift test --sanitize=thread`), whose allocator and shadow
/// memory raise a process's peak: memory bounds measured in such a build allow for it.
public let threadSanitizerIsActive: Bool = {
    #if canImport(Glibc)
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(program, "__tsan_init") != nil
    #else
        return false
    #endif
}()
