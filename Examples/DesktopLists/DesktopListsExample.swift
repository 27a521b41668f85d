import Foundation
import TransferDesktop
import TransferSessions

/// Seed 000's two lists in two windows of two processes, with rows moved between them by a real drag.
///
/// - `DesktopLists window DIR TITLE [--samples] [--drag NAME] [--drops N] [--pause-at EVENT] [--timeout SECONDS]`
///   opens the list stored in `DIR` (the sample cards with `--samples`, when there is none yet) in a window titled
///   `TITLE` showing one card per line, and prints `ready WINDOW`. With `--drag NAME` it waits for the user to drag
///   from the window, drags that card, and prints `drag: OPERATION exactly-once=BOOL [NAMES]`; otherwise it takes
///   `N` drops (1 by default) at the top of the list, printing `drop: OPERATION [NAMES]` for each. A move between
///   two of these processes is exactly-once: the stored lists and the user's decision record see to it, even when
///   either process is killed. `--pause-at EVENT` (a `RemoteSessionEvent`) prints `paused at EVENT` and stops there,
///   so a test can kill the process at that step.
/// - `DesktopLists open DIR` opens the list (which settles what a killed process left in flight) and prints its
///   cards as `[NAMES]`.
@main
struct DesktopListsExample {
    static func main() async {
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            let samples = take("--samples", from: &arguments)
            let drag = value("--drag", from: &arguments)
            let drops = value("--drops", from: &arguments).flatMap { Int($0) } ?? 1
            let pause = value("--pause-at", from: &arguments).flatMap(RemoteSessionEvent.init(rawValue:))
            let timeout = Duration.seconds(value("--timeout", from: &arguments).flatMap { Int($0) } ?? 30)
            switch (arguments.first, arguments.count) {
            case ("window", 3):
                let list = try TransferList(
                    storedIn: URL(fileURLWithPath: arguments[1]), initialElements: samples ? Card.samples : [])
                try await window(
                    list, title: arguments[2], drag: drag, drops: drops, pause: pause, timeout: timeout)
            case ("open", 2):
                print("[\(names(try TransferList<Card>(storedIn: URL(fileURLWithPath: arguments[1]))))]")
            default:
                print(
                    "usage: DesktopLists window DIR TITLE [--samples] [--drag NAME] [--drops N] [--pause-at EVENT] "
                        + "[--timeout SECONDS] | DesktopLists open DIR")
                exit(2)
            }
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }

    /// Shows `list` in a window and drags from it or takes drops on it.
    static func window(
        _ list: TransferList<Card>, title: String, drag: String?, drops: Int, pause: RemoteSessionEvent?,
        timeout: Duration
    ) async throws {
        let window = try await DesktopWindow.open(
            DesktopWindow.Options(
                title: title, lines: list.elements.map(\.name), timeout: timeout,
                sessionObserver: { event in
                    guard event == pause else { return }
                    say("paused at \(event.rawValue)")
                    try? await Task.sleep(for: .seconds(3600))
                }))
        defer { window.close() }
        say("ready \(window.identifier)")
        if let drag {
            let result = try await window.drag(try list.beginDrag([drag]))
            say("drag: \(result.operation) exactly-once=\(result.exactlyOnce) [\(names(list))]")
            return
        }
        var taken = 0
        for try await drop in window.drops({ _ in DropProposal(operation: .move) }) {
            let result = try await list.drop(drop, at: 0)
            try await window.show(lines: list.elements.map(\.name))
            say("drop: \(result.operation) [\(names(list))]")
            taken += 1
            if taken == drops { return }
        }
    }

    /// Writes `line` to standard output at once (a test waits for it).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The list's card names, in order.
    static func names(_ list: TransferList<Card>) -> String {
        list.elements.map(\.name).joined(separator: " ")
    }

    /// Removes the flag `name` from `arguments`; whether it was there.
    static func take(_ name: String, from arguments: inout [String]) -> Bool {
        guard let index = arguments.firstIndex(of: name) else { return false }
        arguments.remove(at: index)
        return true
    }

    /// Removes the option `name` and its value from `arguments`; the value.
    static func value(_ name: String, from arguments: inout [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        defer { arguments.removeSubrange(index...(index + 1)) }
        return arguments[index + 1]
    }
}
