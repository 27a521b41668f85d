/// Renders `--help` output from a tool's commands and a command's signature.
enum HelpText {
    static func render(_ tool: TransferKitTool) -> String {
        var text = "OVERVIEW: \(tool.abstract)\n\nUSAGE: \(tool.name) <command> [options]\n"
        text += "       \(tool.name) --version\n\nCOMMANDS:\n"
        let width = (tool.commands.map(\.name.count).max() ?? 0) + 2
        for command in tool.commands {
            text += "  " + command.name.padding(to: width) + command.abstract + "\n"
        }
        text += "\n  See '\(tool.name) <command> --help' for a command's options.\n\n" + exitStatusTable
        return text
    }

    /// The exit statuses every command keeps to (``ExitCode``); the README has the same table.
    static let exitStatusTable = """
        EXIT STATUS (every command):
          0    success
          1    what was asked for is not there (an item, a type, something on the clipboard), or a check failed
          2    a usage error, or input that cannot be read or output that cannot be written
          141  standard output was closed before the end (as by 'head'): the tool stops quietly, as 'cat' does

        """

    static func render(_ command: any Command, toolName: String) -> String {
        let signature = command.signature
        var usage = "\(toolName) \(command.name)"
        for option in signature.options {
            let spelled = option.valueName == nil ? option.key : option.key + " " + option.placeholder
            usage += (option.isRequired ? " \(spelled)" : " [\(spelled)]") + (option.isRepeatable ? "..." : "")
        }
        if let positionals = signature.positionals {
            let many = positionals.maximum.map { $0 > 1 } ?? true
            let word = positionals.name + (many ? "..." : "")
            usage += positionals.minimum > 0 ? " \(word)" : " [\(word)]"
        }
        var rows: [(String, String)] = []
        if let positionals = signature.positionals {
            rows.append((positionals.name, positionals.help))
        }
        for option in signature.options {
            let names = option.names.joined(separator: ", ")
            let value = option.valueName == nil ? "" : " " + option.placeholder
            rows.append((names + value, option.help))
        }
        rows.append(("-h, --help", "Show help information."))
        let width = min(32, (rows.map(\.0.count).max() ?? 0) + 2)
        var text = "OVERVIEW: \(command.abstract)\n\nUSAGE: \(usage)\n\nARGUMENTS AND OPTIONS:\n"
        for (left, right) in rows {
            if left.count + 2 > width {
                text += "  \(left)\n  " + "".padding(to: width) + right + "\n"
            } else {
                text += "  " + left.padding(to: width) + right + "\n"
            }
        }
        if !command.discussion.isEmpty {
            text += "\n" + command.discussion + (command.discussion.hasSuffix("\n") ? "" : "\n")
        }
        return text
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
