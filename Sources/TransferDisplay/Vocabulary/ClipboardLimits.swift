import Synchronization

/// The limits every reader of a clipboard or drag offer applies to what a peer sends, whatever the protocol.
///
/// An owner or a drag source names its types itself, and nothing in X11 or Wayland bounds how many: a hostile or
/// broken peer offering 100 000 names once froze a drop for minutes. Every reader (``Clipboard/offeredTypes(on:)``,
/// ``Clipboard/read(from:)``, ``Clipboard/changes(of:)``, the keeper, desktop drops) takes at most
/// ``maximumOfferedTypes`` names, the first ones in the peer's order (its preference), and ignores the rest;
/// ``ClipboardChange/omittedTypeCount`` says how many were left out, and `transferkit` reports it once per offer.
///
/// An owner, in turn, serves every reader, and on X11 any client may ask for any number of conversions at once:
/// each conversion holds a load of the item's data until it is written. An X11 owner serves at most
/// ``maximumConcurrentConversions`` conversions at once for each client (the X11 client whose windows ask, however
/// many windows it uses); a request past that is refused at once, as ICCCM refuses a conversion (a
/// `SelectionNotify` whose property is `None`), and the client may ask again once one of its conversions ended.
/// Other clients are served meanwhile.
///
/// ```swift
/// ClipboardLimits.maximumOfferedTypes = 256  // before connecting; applies process-wide
/// ClipboardLimits.maximumConcurrentConversions = 64
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

    /// The default of ``maximumConcurrentConversions``: 64, as many loads as a drag session's source serves at once
    /// for one destination; clipboard managers and applications ask for a few at a time.
    public static let defaultMaximumConcurrentConversions = 64

    private static let concurrentConversions = Atomic(defaultMaximumConcurrentConversions)

    /// The most conversions an X11 owner (a clipboard write, a drag's selection) serves at once for one requesting
    /// client (``defaultMaximumConcurrentConversions`` by default); more are refused at once. It is read for each
    /// request; values below 1 count as 1. Wayland's compositor hands each paste over separately and is not
    /// affected.
    public static var maximumConcurrentConversions: Int {
        get { concurrentConversions.load(ordering: .relaxed) }
        set { concurrentConversions.store(max(1, newValue), ordering: .relaxed) }
    }
}
