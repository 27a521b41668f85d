#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// C library functions that the platform's module map hides, found by name at run time.
///
/// Glibc's module map leaves out declarations that need a feature macro (`_GNU_SOURCE` for `splice` and `pipe2`,
/// `_XOPEN_SOURCE` for the pseudo-terminal calls) and whole headers (`malloc.h`); the functions are in the C library
/// all the same. Each caller keeps the function it looks up in a `static let`, so the look-up happens once.
package enum CLibrary {
    /// The C library's function `name`, as the C function type `Function`, or `nil` when the process has no such
    /// symbol (another C library, or a statically linked program without a dynamic symbol table).
    ///
    /// - Parameters:
    ///   - name: The symbol, as C spells it.
    ///   - type: A `@convention(c)` function type that matches the C declaration exactly; nothing checks it.
    package static func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let address = dlsym(dlopen(nil, RTLD_LAZY), name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}

/// The C library's memory allocator, set up for a command-line process.
package enum ProcessAllocator {
    /// `mallopt`'s `M_ARENA_MAX`, fixed in glibc's ABI (`malloc.h`).
    private static let arenaMaximumParameter: Int32 = -8

    private typealias SetOptionFunction = @convention(c) (Int32, Int32) -> Int32

    /// Makes every thread of the process allocate from one arena, the C library's main one, and returns whether the
    /// C library took the setting (glibc's `mallopt(M_ARENA_MAX, 1)`; `false` under another C library).
    ///
    /// Why: a Swift command runs its work on the concurrency pool's threads, and glibc gives such a thread an arena
    /// of its own, which grows one `mprotect(2)` call for every page or two it hands out, where the main arena grows
    /// by `brk(2)` with padding. Loading 100 000 declared types made 14 000 of those calls, 5 % of the load's samples
    /// in perf; without them the load's median was 8 % lower. Small blocks still come from each thread's own cache
    /// without a lock, so one arena costs a command, whose threads mostly take turns, little.
    ///
    /// Call it first in `main`, before the process has a second thread: a thread that has allocated keeps its arena.
    /// For executables only; a library must not change its host's allocator.
    @discardableResult
    package static func useOneArena() -> Bool {
        #if canImport(Glibc)
            guard let setOption = CLibrary.function("mallopt", as: SetOptionFunction.self) else { return false }
            return setOption(arenaMaximumParameter, 1) == 1
        #else
            return false
        #endif
    }
}
