public import Foundation
import TransferKitPlatform

/// A point on an X screen, in pixels from its top-left corner.
public struct ScreenPoint: Sendable, Hashable, CustomStringConvertible {
    /// Pixels from the left edge.
    public var x: Int
    /// Pixels from the top edge.
    public var y: Int

    /// The point at `x`, `y`.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// `x,y`.
    public var description: String { "\(x),\(y)" }
}

/// What went wrong while driving the pointer: a window that never appeared, an `xdotool` that failed.
public struct PointerDriverError: Error, CustomStringConvertible {
    /// What failed, in one line.
    public var description: String
}

/// Drives the pointer of one X server through `xdotool`, the way a user drags: press, a few moves about 100 ms
/// apart (toolkits start a drag past a threshold and answer each position before the next), release.
///
/// Give it the `DISPLAY` and `XAUTHORITY` of the test's own Xvfb; it finds windows by their title and places them,
/// so a test knows where to press:
/// ```swift
/// let pointer = PointerDriver(environment: server.environment)
/// let source = try await pointer.window(titled: "gtk source 1")
/// try await pointer.place(source, at: ScreenPoint(x: 0, y: 0))
/// try await pointer.drag(from: ScreenPoint(x: 100, y: 75), to: ScreenPoint(x: 500, y: 75))
/// ```
public struct PointerDriver: Sendable {
    /// Where Debian installs `xdotool`.
    public static let xdotoolPath = SystemTool.path("xdotool")

    /// Whether `xdotool` is installed, for `.enabled(if:)`.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: xdotoolPath) }

    /// The environment of every `xdotool` run (its `DISPLAY` and `XAUTHORITY` name the server).
    public let environment: [String: String]

    /// A driver of the X server that `environment`'s `DISPLAY` names.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The id of the window titled exactly `title`, polled until it is mapped.
    ///
    /// - Throws: ``PointerDriverError`` when no such window appears within `limit`.
    public func window(titled title: String, within limit: Duration = .seconds(45)) async throws -> String {
        let pattern = "^" + NSRegularExpression.escapedPattern(for: title) + "$"
        let deadline = ContinuousClock.now + limit
        while true {
            let found = try await xdotool(["search", "--onlyvisible", "--name", pattern], allowFailure: true)
            if let window = found.split(whereSeparator: \.isNewline).first { return String(window) }
            guard ContinuousClock.now < deadline else {
                throw PointerDriverError(description: "no window titled '\(title)' appeared within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Moves `window`'s top-left corner to `point` and waits until the server reports it there.
    ///
    /// - Throws: ``PointerDriverError`` when the window is not there within `limit`.
    public func place(_ window: String, at point: ScreenPoint, within limit: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + limit
        while true {
            _ = try await xdotool(["windowmove", window, "\(point.x)", "\(point.y)"])
            let geometry = try await xdotool(["getwindowgeometry", "--shell", window])
            if geometry.contains("X=\(point.x)\n"), geometry.contains("Y=\(point.y)\n") { return }
            guard ContinuousClock.now < deadline else {
                throw PointerDriverError(description: "window \(window) is not at \(point): \(geometry)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Moves the pointer to `point` and presses the first button there.
    public func press(at point: ScreenPoint) async throws {
        _ = try await xdotool(["mousemove", "--sync", "\(point.x)", "\(point.y)", "mousedown", "1"])
    }

    /// Presses the first button where the pointer is.
    ///
    /// Use it after ``move(to:)``: `press(at:)` to the point the pointer already rests on waits out `xdotool`'s
    /// `--sync`, which expects the pointer to move.
    public func press() async throws {
        _ = try await xdotool(["mousedown", "1"])
    }

    /// Moves the pointer to `point` (the button stays as it is).
    public func move(to point: ScreenPoint) async throws {
        _ = try await xdotool(["mousemove", "--sync", "\(point.x)", "\(point.y)"])
    }

    /// Releases the first button where the pointer is.
    public func release() async throws {
        _ = try await xdotool(["mouseup", "1"])
    }

    /// Drags from `start` to `end`: presses at `start`, moves there in `steps` moves `interval` apart (then twice more
    /// on `end`, so the target answers a position there before the drop), and releases.
    ///
    /// - Parameter started: Whether the source says its drag began, as in ``begin(at:towards:steps:interval:started:)``.
    /// - Throws: ``PointerDriverError`` when the drag never began.
    public func drag(
        from start: ScreenPoint, to end: ScreenPoint, steps: Int = 4, interval: Duration = .milliseconds(100),
        started: (@Sendable () async throws -> Bool)? = nil
    ) async throws {
        let first = try await begin(at: start, towards: end, steps: steps, interval: interval, started: started)
        try await moveAlong(from: first, to: end, steps: max(steps, 2) - 1, interval: interval)
        try await release()
    }

    /// Starts a drag: presses at `start` and makes the first of `steps` moves towards `end`, which passes every
    /// toolkit's drag threshold; the button stays pressed.
    ///
    /// - Parameter started: Whether the source says its drag began (waiting a while for it). When it says no, the
    ///   button is released and the press tried again, three times at most: on a loaded machine a toolkit that just
    ///   mapped its window can miss the first press, or see the release before its drag's grab.
    /// - Returns: Where the pointer is.
    /// - Throws: ``PointerDriverError`` when the drag never began.
    public func begin(
        at start: ScreenPoint, towards end: ScreenPoint, steps: Int = 4, interval: Duration = .milliseconds(100),
        started: (@Sendable () async throws -> Bool)? = nil
    ) async throws -> ScreenPoint {
        let count = max(steps, 2)
        let first = ScreenPoint(x: start.x + (end.x - start.x) / count, y: start.y + (end.y - start.y) / count)
        for attempt in 1...3 {
            try await press(at: start)
            try await Task.sleep(for: interval)
            try await move(to: first)
            try await Task.sleep(for: interval)
            guard let started, !(try await started()) else { return first }
            try await release()
            guard attempt < 3 else { break }
            try await Task.sleep(for: interval)
        }
        throw PointerDriverError(description: "the drag from \(start) did not begin after 3 presses")
    }

    /// Moves from `start` to `end` in `steps` moves `interval` apart, then twice more on `end` (a nudge of one
    /// pixel and back), each followed by `interval`: the button stays as it is.
    public func moveAlong(
        from start: ScreenPoint, to end: ScreenPoint, steps: Int = 4, interval: Duration = .milliseconds(100)
    ) async throws {
        let count = max(steps, 1)
        for step in 1...count {
            let point = ScreenPoint(
                x: start.x + (end.x - start.x) * step / count, y: start.y + (end.y - start.y) * step / count)
            try await move(to: point)
            try await Task.sleep(for: interval)
        }
        for point in [ScreenPoint(x: end.x, y: end.y + 1), end] {
            try await move(to: point)
            try await Task.sleep(for: interval)
        }
    }

    /// Runs `xdotool` with `arguments` (within 30 seconds) and returns its standard output.
    @discardableResult
    private func xdotool(_ arguments: [String], allowFailure: Bool = false) async throws -> String {
        let result = try await ChildProcess.run(
            "/usr/bin/timeout", arguments: ["--kill-after=5", "30", Self.xdotoolPath] + arguments,
            environment: environment)
        guard result.status == 0 || allowFailure else {
            throw PointerDriverError(
                description:
                    "xdotool \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.errorText)")
        }
        return result.outputText
    }
}

extension PointerDriver {
    /// Drags from `start` to `end` from a TransferGTK drag source, which is known to have begun its drag when its
    /// session's socket (`transferkit-drag-….sock`) appears in `runtimeDirectory` (its `XDG_RUNTIME_DIR`); pressed
    /// again if it did not, as on a loaded machine. The first move passes every toolkit's drag threshold. (A
    /// `DesktopWindow` publishes its session before the press: drag from it with ``drag(from:to:steps:interval:started:)``.)
    ///
    /// - Parameter accepted: When given, awaited after the last move and before the release: whether the target
    ///   has accepted the drag (the source's own report). Without it, a sanitizer-built run waits 2 seconds instead.
    /// - Throws: ``PointerDriverError`` when the drag never began, or `accepted` answered `false`.
    public func dragPublishingSession(
        from start: ScreenPoint, to end: ScreenPoint, runtimeDirectory: URL,
        accepted: (() async throws -> Bool)? = nil
    ) async throws {
        let sockets = { @Sendable in
            Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory.path)) ?? []).filter {
                    $0.hasPrefix("transferkit-drag-")
                })
        }
        let before = sockets()
        let distance = max(abs(end.x - start.x), abs(end.y - start.y))
        let steps = max(2, min(6, distance / 16))
        let interval = Duration.milliseconds(120)
        let first = try await begin(at: start, towards: end, steps: steps, interval: interval) {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if !sockets().subtracting(before).isEmpty { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
        try await moveAlong(from: first, to: end, steps: max(steps, 2) - 1, interval: interval)
        // A target built with the thread sanitizer answers a position many times slower: give it time to accept
        // before the release, or the source drops on a target that has not said yes (a cancel).
        if let accepted {
            guard try await accepted() else {
                try await release()
                throw PointerDriverError(description: "the drop target never accepted the drag")
            }
        } else if threadSanitizerIsActive {
            try await Task.sleep(for: .seconds(2))
        }
        try await release()
    }
}
