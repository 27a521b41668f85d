import Synchronization

/// The limits every reader of a clipboard or drag offer applies to what a peer sends, whatever the protocol.
///
/// An owner or a drag source names its types itself, and nothing in X11 or Wayland bounds how many: a hostile or
/// broken peer offering 100 000 names once froze a drop for minutes. Every reader (``Clipboard/offeredTypes(on:)``,
/// ``Clipboard/read(from:)``, ``Clipboard/changes(of:)``, the keeper, desktop drops) takes at most
/// ``maximumOfferedTypes`` names, the first ones in the peer's order (its preference), and ignores the rest;
/// ``ClipboardChange/omittedTypeCount`` says how many were left out, and `transferkit` reports it once per offer.
///
/// ```swift
/// ClipboardLimits.maximumOfferedTypes = 256  // before connecting; applies process-wide
/// ```
public enum ClipboardLimits {
    /// The default of ``maximumOfferedTypes``: 256 names, far more than applications offer (a browser or an office
    /// suite offers a few dozen), and as many representations as one item of an archive may hold
    /// (`TransferArchive.Limits.maxRepresentationsPerItem`), so that `paste --archive` and the keeper's snapshots of
    /// any offer can be read back.
    public static let defaultMaximumOfferedTypes = 256

    private static let offeredTypes = Atomic(defaultMaximumOfferedTypes)

    /// The most names any reader takes from one offer (``defaultMaximumOfferedTypes`` by default); the others are
    /// ignored. Set it once, before the clipboard is used; values below 1 count as 1.
    public static var maximumOfferedTypes: Int {
        get { offeredTypes.load(ordering: .relaxed) }
        set { offeredTypes.store(max(1, newValue), ordering: .relaxed) }
    }
}
