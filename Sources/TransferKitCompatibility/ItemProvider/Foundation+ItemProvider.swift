#if !canImport(Darwin)
    public import Foundation
    import UniformTypes

    /// `NSString` reads and writes as on Apple platforms, through TransferKit's `String` reader and writer: every
    /// plain-text type in, UTF-8 plain text out. `loadObject(ofClass: String.self)` goes through it.
    extension NSString: NSItemProviderReading, NSItemProviderWriting {
        /// The identifiers of `String.readableTypes`: UTF-8, UTF-16 (with and without byte-order mark), plain text.
        public static var readableTypeIdentifiersForItemProvider: [String] {
            String.readableTypes.map(\.identifier)
        }

        /// `public.utf8-plain-text`.
        public static var writableTypeIdentifiersForItemProvider: [String] {
            String.writableTypes.map(\.identifier)
        }

        /// Decodes text of the type.
        ///
        /// - Throws: `TransferError` with `decodingFailed` for bytes invalid in the type's encoding.
        public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
            let text = try String(transferData: data, type: UniformType(typeIdentifier) ?? .plainText)
            return try cast(NSString(string: text), to: Self.self)
        }

        /// The text as UTF-8.
        public func loadData(
            withTypeIdentifier typeIdentifier: String,
            forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
        ) -> Progress? {
            completionHandler(Data(String(describing: self).utf8), nil)
            return nil
        }
    }

    /// `NSURL` reads and writes as on Apple platforms, through TransferKit's `URL` reader and writer.
    extension NSURL: NSItemProviderReading, NSItemProviderWriting {
        /// `public.url` (file URLs conform to it) and `text/uri-list`.
        public static var readableTypeIdentifiersForItemProvider: [String] {
            URL.readableTypes.map(\.identifier)
        }

        /// `public.url`.
        public static var writableTypeIdentifiersForItemProvider: [String] {
            URL.writableTypes.map(\.identifier)
        }

        /// `public.file-url` and `public.url` for a file URL, else `public.url`.
        public var writableTypeIdentifiersForItemProvider: [String] {
            (self as URL).writableTypes.map(\.identifier)
        }

        /// Decodes a URL.
        ///
        /// - Throws: `TransferError` with `decodingFailed` for bytes that are not a URL.
        public static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Self {
            let url = try URL.object(from: data, type: UniformType(typeIdentifier) ?? .url)
            return try cast(url as NSURL, to: Self.self)
        }

        /// The absolute string as UTF-8.
        public func loadData(
            withTypeIdentifier typeIdentifier: String,
            forItemProviderCompletionHandler completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
        ) -> Progress? {
            completionHandler(Data((self as URL).absoluteString.utf8), nil)
            return nil
        }
    }

    /// `object` as `T`, or the error Apple gives for an object of another class (a subclass asked for).
    private func cast<T>(_ object: Any, to type: T.Type) throws -> T {
        guard let typed = object as? T else {
            throw NSError(
                domain: NSItemProviderErrorDomain, code: NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue,
                userInfo: [NSLocalizedDescriptionKey: "\(Swift.type(of: object)) is not a \(T.self)."])
        }
        return typed
    }
#endif
