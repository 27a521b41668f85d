/// The built-in declarations: the public.* hierarchy and other well-known types, with their direct
/// parents, extensions and MIME types as Apple declares them (the first tag of each class is the
/// preferred one). Types Apple does not declare use the `org.transferkit.` domain and say so.
///
/// Where this table adds to Apple's tags, the comment on the line says so. Descriptions are
/// TransferKit's own short English names.
struct SystemTypeEntry: Sendable {
    var identifier: String
    var parents: [String]
    var description: String
    var extensions: [String] = []
    var mimeTypes: [String] = []
}

extension SystemTypeEntry {
    private static func type(
        _ identifier: String,
        _ parents: [String],
        _ description: String,
        ext extensions: [String] = [],
        mime mimeTypes: [String] = []
    ) -> Self {
        Self(
            identifier: identifier, parents: parents, description: description, extensions: extensions,
            mimeTypes: mimeTypes)
    }

    // swift-format-ignore
    static let table: [SystemTypeEntry] = [
        // Roots and abstract kinds
        type("public.item", [], "item"),
        type("public.content", [], "content"),
        type("public.composite-content", ["public.content"], "composite content"),
        type("public.data", ["public.item"], "data", mime: ["application/octet-stream"]),
        type("public.archive", [], "archive"),
        type("public.disk-image", ["public.archive"], "disk image"),
        type("public.executable", [], "executable"),
        type("public.message", [], "message"),
        type("public.email-message", ["public.message"], "email message"),
        type("public.contact", [], "contact"),
        type("public.calendar-event", [], "calendar event"),
        type("public.to-do-item", [], "to-do item"),
        type("public.database", [], "database"),
        type("public.spreadsheet", ["public.content"], "spreadsheet"),
        type("public.presentation", ["public.composite-content"], "presentation"),
        type("public.3d-content", ["public.content"], "3D content"),
        type("public.playlist", [], "playlist"),
        type("public.log", ["public.item"], "log"),

        // File system
        type("public.directory", ["public.item"], "directory"),
        type("public.folder", ["public.directory"], "folder"),
        type("public.volume", ["public.folder"], "volume"),
        type("com.apple.package", ["public.directory"], "package"),
        type("com.apple.bundle", ["public.directory"], "bundle"),
        type("com.apple.resolvable", [], "resolvable item"),
        type("public.symlink", ["public.item", "com.apple.resolvable"], "symbolic link"),
        type("com.apple.alias-file", ["public.data", "com.apple.resolvable"], "alias"),
        type("com.apple.mount-point", ["public.item", "com.apple.resolvable"], "mount point"),
        type("public.url", ["public.data"], "URL"),
        type("public.file-url", ["public.url"], "file URL"),
        type("public.url-name", ["public.data"], "URL name"),

        // Text
        type("public.text", ["public.data", "public.content"], "text"),
        type("public.plain-text", ["public.text"], "plain text", ext: ["txt", "text"], mime: ["text/plain"]),
        type("public.utf8-plain-text", ["public.plain-text"], "UTF-8 plain text", mime: ["text/plain;charset=utf-8"]),
        type("public.utf16-external-plain-text", ["public.plain-text"], "UTF-16 plain text with byte-order mark"),
        type("public.utf16-plain-text", ["public.plain-text"], "UTF-16 plain text", mime: ["text/plain;charset=utf-16"]),
        // Not declared by Apple: the text a Latin-1 (ISO 8859-1) application offers, which TransferKit's
        // converters read and write.
        type("org.transferkit.latin1-plain-text", ["public.plain-text"], "Latin-1 (ISO 8859-1) plain text",
             mime: ["text/plain;charset=iso-8859-1"]),
        type("public.delimited-values-text", ["public.text"], "delimited values"),
        type("public.comma-separated-values-text", ["public.plain-text", "public.delimited-values-text"], "comma-separated values",
             ext: ["csv"], mime: ["text/csv", "text/comma-separated-values"]),
        type("public.tab-separated-values-text", ["public.plain-text", "public.delimited-values-text"], "tab-separated values",
             ext: ["tsv"], mime: ["text/tab-separated-values"]),
        type("public.utf8-tab-separated-values-text", ["public.tab-separated-values-text", "public.utf8-plain-text"],
             "UTF-8 tab-separated values"),
        // application/rtf (what Qt and LibreOffice offer) is added after Apple's text/rtf.
        type("public.rtf", ["public.text"], "Rich Text Format document", ext: ["rtf"], mime: ["text/rtf", "application/rtf"]),
        type("public.html", ["public.text"], "HTML document", ext: ["html", "htm", "shtml", "shtm"], mime: ["text/html"]),
        type("public.xml", ["public.text"], "XML document", ext: ["xml"], mime: ["application/xml", "text/xml"]),
        type("public.xhtml", ["public.xml"], "XHTML document", ext: ["xhtml", "xhtm", "xht"], mime: ["application/xhtml+xml"]),
        type("public.css", ["public.text"], "CSS style sheet", ext: ["css"], mime: ["text/css"]),
        type("public.json", ["public.text"], "JSON document", ext: ["json"], mime: ["application/json"]),
        type("public.ndjson", ["public.text"], "newline-delimited JSON", ext: ["ndjson"], mime: ["application/x-ndjson"]),
        // application/yaml (RFC 9512) is added after Apple's application/x-yaml.
        type("public.yaml", ["public.text"], "YAML document", ext: ["yml", "yaml"], mime: ["application/x-yaml", "application/yaml"]),
        type("public.patch-file", ["public.plain-text"], "patch", ext: ["patch", "diff"]),
        type("net.daringfireball.markdown", ["public.plain-text"], "Markdown document", ext: ["md", "markdown"],
             mime: ["text/markdown"]),
        type("com.apple.log", ["public.plain-text", "public.log"], "log file", ext: ["log"]),
        // Not declared by Apple.
        type("org.transferkit.toml", ["public.text"], "TOML document", ext: ["toml"], mime: ["application/toml"]),

        // Source code and scripts
        type("public.source-code", ["public.plain-text"], "source code"),
        type("public.c-source", ["public.source-code"], "C source", ext: ["c"]),
        type("public.c-header", ["public.source-code"], "C header", ext: ["h"]),
        type("public.c-plus-plus-source", ["public.source-code"], "C++ source", ext: ["cp", "cpp", "c++", "cc", "cxx"]),
        type("public.c-plus-plus-header", ["public.source-code"], "C++ header", ext: ["hh", "hp", "hpp", "hxx", "h++", "ipp"]),
        type("public.objective-c-source", ["public.source-code"], "Objective-C source", ext: ["m"]),
        type("public.objective-c-plus-plus-source", ["public.source-code"], "Objective-C++ source", ext: ["mm"]),
        type("public.swift-source", ["public.source-code"], "Swift source", ext: ["swift"]),
        type("com.sun.java-source", ["public.source-code"], "Java source", ext: ["java", "jav"]),
        type("public.assembly-source", ["public.source-code"], "assembly source", ext: ["s"]),
        type("public.script", ["public.source-code"], "script"),
        type("public.shell-script", ["public.script"], "shell script", ext: ["sh"]),
        type("public.bash-script", ["public.shell-script"], "Bash script", ext: ["bash"]),
        type("public.zsh-script", ["public.shell-script"], "Z shell script", ext: ["zsh"]),
        type("public.perl-script", ["public.shell-script"], "Perl script", ext: ["pl", "pm"], mime: ["text/x-perl-script"]),
        type("public.python-script", ["public.shell-script"], "Python script", ext: ["py"], mime: ["text/x-python-script"]),
        type("public.ruby-script", ["public.shell-script"], "Ruby script", ext: ["rb", "rbw"], mime: ["text/x-ruby-script"]),
        type("public.php-script", ["public.shell-script"], "PHP script", ext: ["php", "php3", "php4", "ph3", "ph4", "phtml"],
             mime: ["text/php", "text/x-php-script", "application/php"]),
        type("com.netscape.javascript-source", ["public.script", "public.executable"], "JavaScript source",
             ext: ["js", "jscript", "javascript", "mjs"], mime: ["text/javascript"]),
        type("com.apple.applescript.text", ["public.script"], "AppleScript source", ext: ["applescript"]),
        type("public.make-source", ["public.script"], "makefile", ext: ["make", "mak", "gmk", "mk"]),

        // Executables and applications
        type("public.unix-executable", ["public.data", "public.executable"], "Unix executable"),
        type("public.elf-binary", ["public.data", "public.executable"], "ELF binary"),
        type("public.object-code", ["public.data", "public.executable"], "object code", ext: ["o"]),
        type("com.microsoft.windows-executable", ["public.data", "public.executable"], "Windows executable",
             ext: ["exe"], mime: ["application/x-msdownload"]),
        type("com.microsoft.windows-dynamic-link-library", ["public.data", "public.executable"], "Windows DLL",
             ext: ["dll"], mime: ["application/x-msdownload"]),
        type("com.sun.java-class", ["public.data", "public.executable"], "Java class", ext: ["class"]),
        type("com.sun.java-archive", ["public.zip-archive", "public.executable"], "Java archive", ext: ["jar"],
             mime: ["application/java-archive"]),
        type("com.apple.application", ["public.executable"], "application"),
        type("com.apple.localizable-name-bundle", ["com.apple.bundle"], "bundle with a localizable name"),
        type("com.apple.application-bundle", ["com.apple.application", "com.apple.localizable-name-bundle", "com.apple.package"],
             "application bundle", ext: ["app"]),
        type("com.apple.framework", ["com.apple.bundle"], "framework", ext: ["framework"]),

        // Images
        type("public.image", ["public.data", "public.content"], "image"),
        type("public.png", ["public.image"], "PNG image", ext: ["png"], mime: ["image/png"]),
        type("public.jpeg", ["public.image"], "JPEG image", ext: ["jpeg", "jpg", "jpe"], mime: ["image/jpeg", "image/jpg"]),
        type("public.jpeg-2000", ["public.image"], "JPEG 2000 image", ext: ["jp2", "jpf", "jpx", "j2k", "j2c"], mime: ["image/jp2"]),
        type("public.tiff", ["public.image"], "TIFF image", ext: ["tiff", "tif"], mime: ["image/tiff"]),
        type("com.compuserve.gif", ["public.image"], "GIF image", ext: ["gif"], mime: ["image/gif"]),
        type("public.svg-image", ["public.image", "public.xml"], "SVG image", ext: ["svg", "svgz"], mime: ["image/svg+xml"]),
        type("public.heif-standard", ["public.image"], "HEIF-standard image"),
        type("public.heic", ["public.heif-standard"], "HEIC image", ext: ["heic"], mime: ["image/heic"]),
        type("public.heif", ["public.heif-standard"], "HEIF image", ext: ["heif", "hif"], mime: ["image/heif"]),
        type("org.webmproject.webp", ["public.image"], "WebP image", ext: ["webp"], mime: ["image/webp"]),
        type("com.microsoft.bmp", ["public.image"], "BMP image", ext: ["bmp", "dib"], mime: ["image/bmp"]),
        // Not declared by Apple: Netpbm's PPM (P6) and PAM (P7), and decoded RGBA pixels, which TransferKit's image
        // converters read and write. PPM has shared-mime-info's name; the database has none for PAM.
        type("org.transferkit.ppm", ["public.image"], "PPM image", ext: ["ppm"], mime: ["image/x-portable-pixmap"]),
        type("org.transferkit.pam", ["public.image"], "PAM image", ext: ["pam"], mime: ["image/x-transferkit-pam"]),
        type("org.transferkit.rgba-pixels", ["public.image"], "RGBA pixel buffer"),
        type("com.microsoft.ico", ["public.image"], "Windows icon", ext: ["ico"], mime: ["image/vnd.microsoft.icon"]),
        type("com.apple.icns", ["public.image"], "Apple icon image", ext: ["icns"]),
        type("public.camera-raw-image", ["public.image"], "camera raw image"),
        type("com.adobe.photoshop-image", ["public.image"], "Photoshop document", ext: ["psd"],
             mime: ["image/vnd.adobe.photoshop", "image/photoshop", "image/x-photoshop", "image/psd", "application/photoshop"]),
        type("com.truevision.tga-image", ["public.image"], "TGA image", ext: ["tga"], mime: ["image/targa", "image/tga", "application/tga"]),
        type("com.ilm.openexr-image", ["public.image"], "OpenEXR image", ext: ["exr"]),
        type("com.pixar.universal-scene-description-mobile", ["public.3d-content", "public.data"], "USDZ scene",
             ext: ["usdz"], mime: ["model/vnd.usdz+zip"]),

        // Documents
        type("com.adobe.pdf", ["public.data", "public.composite-content"], "PDF document", ext: ["pdf"], mime: ["application/pdf"]),
        type("com.adobe.postscript", ["public.data", "public.composite-content"], "PostScript document", ext: ["ps"],
             mime: ["application/postscript"]),
        type("org.idpf.epub-container", ["public.data", "public.composite-content"], "EPUB book", ext: ["epub"],
             mime: ["application/epub+zip"]),
        type("com.apple.webarchive", ["public.data", "public.composite-content"], "web archive", ext: ["webarchive"],
             mime: ["application/x-webarchive"]),
        type("com.apple.rtfd", ["com.apple.package", "public.composite-content"], "RTF with attachments", ext: ["rtfd"]),
        type("com.apple.flat-rtfd", ["public.data", "public.composite-content"], "flat RTF with attachments"),
        type("org.openxmlformats.openxml", ["public.data"], "Office Open XML document"),
        type("org.openxmlformats.wordprocessingml.document", ["org.openxmlformats.openxml", "public.composite-content"],
             "Word document", ext: ["docx"], mime: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"]),
        type("org.openxmlformats.spreadsheetml.sheet", ["org.openxmlformats.openxml", "public.composite-content", "public.spreadsheet"],
             "Excel workbook", ext: ["xlsx"], mime: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"]),
        type("org.openxmlformats.presentationml.presentation",
             ["org.openxmlformats.openxml", "public.composite-content", "public.presentation"],
             "PowerPoint presentation", ext: ["pptx"],
             mime: ["application/vnd.openxmlformats-officedocument.presentationml.presentation"]),
        type("org.oasis-open.opendocument", ["public.data"], "OpenDocument"),
        type("org.oasis-open.opendocument.text", ["org.oasis-open.opendocument", "public.composite-content"],
             "OpenDocument text", ext: ["odt"], mime: ["application/vnd.oasis.opendocument.text"]),
        type("org.oasis-open.opendocument.spreadsheet",
             ["org.oasis-open.opendocument", "public.composite-content", "public.spreadsheet"],
             "OpenDocument spreadsheet", ext: ["ods"], mime: ["application/vnd.oasis.opendocument.spreadsheet"]),
        type("org.oasis-open.opendocument.presentation",
             ["org.oasis-open.opendocument", "public.composite-content", "public.presentation"],
             "OpenDocument presentation", ext: ["odp"], mime: ["application/vnd.oasis.opendocument.presentation"]),

        // Archives and compression
        type("com.pkware.zip-archive", ["public.data", "public.archive"], "PKZip archive"),
        type("public.zip-archive", ["com.pkware.zip-archive"], "Zip archive", ext: ["zip"],
             mime: ["application/zip", "application/x-zip-compressed"]),
        type("org.gnu.gnu-tar-archive", ["public.data", "public.archive"], "GNU tar archive", ext: ["gtar"],
             mime: ["application/x-gtar"]),
        type("public.tar-archive", ["org.gnu.gnu-tar-archive"], "tar archive", ext: ["tar"], mime: ["application/x-tar", "application/tar"]),
        type("org.gnu.gnu-zip-archive", ["public.data", "public.archive"], "gzip archive", ext: ["gz", "gzip"],
             mime: ["application/x-gzip", "application/gzip"]),
        type("org.gnu.gnu-zip-tar-archive", ["org.gnu.gnu-zip-archive"], "gzip-compressed tar archive", ext: ["tgz"]),
        type("public.bzip2-archive", ["public.data", "public.archive"], "bzip2 archive", ext: ["bz2", "bz"],
             mime: ["application/x-bzip2", "application/x-bzip", "application/bzip2", "application/bzip", "application/x-bz2"]),
        type("public.tar-bzip2-archive", ["public.bzip2-archive"], "bzip2-compressed tar archive", ext: ["tbz2", "tbz"]),
        type("org.tukaani.xz-archive", ["public.data", "public.archive"], "xz archive", ext: ["xz"], mime: ["application/x-xz"]),
        type("org.7-zip.7-zip-archive", ["public.data", "public.archive"], "7-Zip archive", ext: ["7z"],
             mime: ["application/x-7z-compressed"]),
        type("public.cpio-archive", ["public.data", "public.archive"], "cpio archive", ext: ["cpio", "pax"]),
        type("public.z-archive", ["public.data", "public.archive"], "compress (.Z) archive", ext: ["z"], mime: ["application/x-compress"]),
        type("com.apple.archive", ["public.data", "public.archive"], "Apple Archive", ext: ["aar", "yaa"]),
        // Not declared by Apple.
        type("org.transferkit.zstandard-archive", ["public.data", "public.archive"], "Zstandard archive", ext: ["zst"],
             mime: ["application/zstd"]),

        // Audio and video
        type("public.audiovisual-content", ["public.data", "public.content"], "audiovisual content"),
        type("public.movie", ["public.audiovisual-content"], "movie"),
        type("public.video", ["public.movie"], "video"),
        type("public.audio", ["public.audiovisual-content"], "audio"),
        type("com.apple.quicktime-movie", ["public.movie"], "QuickTime movie", ext: ["mov", "qt"], mime: ["video/quicktime"]),
        type("public.mpeg", ["public.movie"], "MPEG movie", ext: ["mpg", "mpeg", "mpe", "m75", "m15"],
             mime: ["video/mpeg", "video/mpg", "video/x-mpeg", "video/x-mpg"]),
        type("public.mpeg-2-video", ["public.video"], "MPEG-2 video", ext: ["m2v"], mime: ["video/mpeg2", "video/mpeg2-video"]),
        type("public.mpeg-2-transport-stream", ["public.movie"], "MPEG-2 transport stream", ext: ["ts"]),
        type("public.mpeg-4", ["public.movie"], "MPEG-4 movie", ext: ["mp4", "mpg4"], mime: ["video/mp4", "video/mp4v-es"]),
        type("com.apple.m4v-video", ["public.mpeg-4"], "M4V video", ext: ["m4v"], mime: ["video/x-m4v"]),
        type("public.avi", ["public.movie"], "AVI movie", ext: ["avi", "vfw"], mime: ["video/avi", "video/msvideo", "video/x-msvideo"]),
        type("public.3gpp", ["public.movie"], "3GPP movie", ext: ["3gp", "3gpp", "sdv"], mime: ["video/3gpp", "audio/3gpp"]),
        type("org.webmproject.webm", ["public.movie"], "WebM media", ext: ["webm"], mime: ["video/webm", "audio/webm"]),
        type("public.mp3", ["public.audio"], "MP3 audio", ext: ["mp3", "mpga"],
             mime: ["audio/mpeg", "audio/mpeg3", "audio/mpg", "audio/mp3", "audio/x-mpeg", "audio/x-mpeg3", "audio/x-mpg", "audio/x-mp3"]),
        type("public.mpeg-4-audio", ["public.audio"], "MPEG-4 audio", ext: ["mp4", "mpg4"], mime: ["audio/mp4", "audio/mp4a-latm"]),
        type("com.apple.m4a-audio", ["public.mpeg-4-audio"], "M4A audio", ext: ["m4a"], mime: ["audio/x-m4a"]),
        type("public.aifc-audio", ["public.audio"], "AIFF-C audio", ext: ["aifc"]),
        type("public.aiff-audio", ["public.aifc-audio"], "AIFF audio", ext: ["aiff", "aif"], mime: ["audio/aiff", "audio/x-aiff"]),
        type("com.microsoft.waveform-audio", ["public.audio"], "WAVE audio", ext: ["wav", "wave", "bwf"],
             mime: ["audio/vnd.wave", "audio/wav", "audio/wave", "audio/x-wav"]),
        type("public.midi-audio", ["public.audio"], "MIDI audio", ext: ["midi", "mid", "smf", "kar"], mime: ["audio/midi", "audio/x-midi"]),
        type("public.aac-audio", ["public.audio"], "AAC audio", ext: ["aac", "adts"], mime: ["audio/aac", "audio/x-aac"]),
        type("public.au-audio", ["public.audio"], "AU audio", ext: ["au", "snd"], mime: ["audio/basic"]),
        type("org.xiph.flac", ["public.audio"], "FLAC audio", ext: ["flac"], mime: ["audio/flac"]),
        type("com.apple.coreaudio-format", ["public.audio"], "Core Audio file", ext: ["caf"]),
        type("public.m3u-playlist", ["public.plain-text", "public.playlist"], "M3U playlist", ext: ["m3u", "m3u8"],
             mime: ["audio/mpegurl", "application/vnd.apple.mpegurl", "audio/x-mpegurl"]),

        // Property lists, contacts, calendars
        type("com.apple.property-list", ["public.data"], "property list", ext: ["plist"]),
        type("com.apple.xml-property-list", ["public.xml", "com.apple.property-list"], "XML property list", ext: ["plist"]),
        type("com.apple.binary-property-list", ["com.apple.property-list"], "binary property list", ext: ["plist"]),
        type("public.vcard", ["public.text", "public.contact"], "vCard", ext: ["vcf", "vcard"],
             mime: ["text/vcard", "text/directory", "text/x-vcard"]),
        type("com.apple.ical.ics", ["public.text", "public.item", "public.calendar-event"], "iCalendar file", ext: ["ics"],
             mime: ["text/calendar"]),

        // Fonts and security
        type("public.font", ["public.data"], "font"),
        type("public.truetype-font", ["public.font"], "TrueType font"),
        type("public.truetype-ttf-font", ["public.truetype-font"], "TrueType font file", ext: ["ttf"], mime: ["font/ttf"]),
        type("public.opentype-font", ["public.font"], "OpenType font", ext: ["otf"], mime: ["font/otf"]),
        type("public.x509-certificate", ["public.data"], "X.509 certificate", ext: ["cer", "der", "crt", "pem"],
             mime: ["application/x-x509-ca-cert"]),
        type("com.rsa.pkcs-12", ["public.data"], "PKCS #12 archive", ext: ["p12", "pfx"], mime: ["application/x-pkcs12"]),

        // Wallet passes
        type("com.apple.pkpass", ["com.apple.bundle", "com.apple.package"], "Wallet pass", ext: ["pkpass"],
             mime: ["application/vnd.apple.pkpass"]),
        // TransferKit adds the MIME type, so that `application/vnd.apple.pkpass` bytes (a zip file) have a
        // type that conforms to public.data, as lookups require by default.
        type("com.apple.pkpass-data", ["public.data"], "Wallet pass data", ext: ["pkpass"],
             mime: ["application/vnd.apple.pkpass"]),

        // What Linux desktops, toolkits and browsers put on the clipboard and in drags; not declared by Apple.
        // Declared so that a snapshot of another application's clipboard carries these types rather than dyn.mime….
        // A list of URLs (RFC 2483), as file managers, GTK and Qt exchange files: it conforms to public.file-url so
        // that a reader of file URLs finds the files of another application (a list may hold other URLs too; its
        // readers, URL and [URL], take any). KDE offers the same list as application/x-kde4-urilist.
        type("org.transferkit.uri-list", ["public.file-url", "public.text"], "URL list",
             mime: ["text/uri-list", "application/x-kde4-urilist"]),
        // GNOME's and Nautilus's copied or cut files: "copy" or "cut", then one URL per line (not a URL list).
        type("org.transferkit.gnome-copied-files", ["public.data"], "copied or cut files (GNOME)",
             mime: ["x-special/gnome-copied-files"]),
        type("org.transferkit.nautilus-clipboard", ["public.data"], "copied or cut files (Nautilus)",
             mime: ["x-special/nautilus-clipboard"]),
        // KDE's marks beside its URL list: "1" when the files were cut, and Klipper's hint.
        type("org.transferkit.kde-cut-selection", ["public.data"], "cut mark (KDE)",
             mime: ["application/x-kde-cutselection"]),
        type("org.transferkit.kde-only-replace-empty", ["public.data"], "clipboard-history hint (KDE)",
             mime: ["application/x-kde-onlyReplaceEmpty"]),
        // Chromium's and Firefox's private forms beside the standard ones.
        type("org.transferkit.chromium-web-custom-data", ["public.data"], "web page custom data (Chromium)",
             mime: ["chromium/x-web-custom-data"]),
        type("org.transferkit.chromium-source-url", ["public.data"], "source page's URL (Chromium)",
             mime: ["chromium/x-source-url"]),
        type("org.transferkit.chromium-renderer-taint", ["public.data"], "copied from a web page (Chromium)",
             mime: ["chromium/x-renderer-taint"]),
        type("org.transferkit.mozilla-url", ["public.data"], "URL and title (Firefox)", mime: ["text/x-moz-url"]),
        type("org.transferkit.mozilla-url-private", ["public.data"], "private URL (Firefox)",
             mime: ["text/x-moz-url-priv"]),
        type("org.transferkit.mozilla-html-context", ["public.data"], "HTML context (Firefox)",
             mime: ["text/_moz_htmlcontext"]),
        type("org.transferkit.mozilla-html-info", ["public.data"], "HTML info (Firefox)", mime: ["text/_moz_htmlinfo"]),
        // Qt's and GTK's own forms, and the desktop portal's file transfer (Flatpak applications).
        type("org.transferkit.qt-image", ["public.data"], "image (Qt)", mime: ["application/x-qt-image"]),
        type("org.transferkit.gtk-rich-text", ["public.data"], "rich text (GTK text buffer)",
             mime: ["application/x-gtk-text-buffer-rich-text"]),
        type("org.transferkit.portal-files", ["public.data"], "files (desktop portal)",
             mime: ["application/vnd.portal.files"]),
        type("org.transferkit.portal-file-transfer", ["public.data"], "file transfer (desktop portal)",
             mime: ["application/vnd.portal.filetransfer"]),

        // TransferKit's own formats; not declared by Apple.
        type("org.transferkit.cbor", ["public.data"], "CBOR data", ext: ["cbor"], mime: ["application/cbor"]),
        // The two forms of a transfer archive (Schemas/transfer-archive.md, "Media types"). The JSON form claims no
        // file name extension, so that `.json` files stay public.json.
        type("org.transferkit.archive", ["public.data"], "TransferKit archive", ext: ["transferkit"],
             mime: ["application/vnd.transferkit.archive+cbor"]),
        type("org.transferkit.archive.json", ["public.json"], "TransferKit archive (JSON form)",
             mime: ["application/vnd.transferkit.archive+json"]),
    ]
}
