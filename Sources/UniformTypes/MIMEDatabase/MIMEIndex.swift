/// What a catalog keeps of the shared-mime-info databases it imported (placeholder).
final class MIMEIndex: Sendable {
    let databases: [MIMEDatabase]

    init(databases: [MIMEDatabase]) {
        self.databases = databases
    }
}
