#if !canImport(Darwin)
    public import Foundation

    /// Text is transferable as on Apple platforms: every plain-text type in, UTF-8 plain text out (TransferKit's
    /// `String` reader and writer).
    extension String: Transferable {
        /// TransferKit's `String` reader and writer as one representation.
        public static var transferRepresentation: TransferRepresentationGroup<String> {
            TransferRepresentationGroup(.proxy(exporting: { $0 }, importing: { $0 }))
        }
    }

    /// Bytes are transferable as `public.data`.
    extension Data: Transferable {
        /// TransferKit's `Data` reader and writer as one representation.
        public static var transferRepresentation: TransferRepresentationGroup<Data> {
            TransferRepresentationGroup(.proxy(exporting: { $0 }, importing: { $0 }))
        }
    }

    /// URLs are transferable as `public.url` (and `public.file-url` for files) and read from `text/uri-list`.
    extension URL: Transferable {
        /// TransferKit's `URL` reader and writer as one representation.
        public static var transferRepresentation: TransferRepresentationGroup<URL> {
            TransferRepresentationGroup(.proxy(exporting: { $0 }, importing: { $0 }))
        }
    }
#endif
