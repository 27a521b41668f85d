#if !canImport(Darwin)
    import UniformTypes

    // The `kUTType…` constants of MobileCoreServices / CoreServices, for every type Apple declares a constant for
    // and TransferKit knows. On Apple platforms they are `CFString`s that code turns into identifiers with
    // `kUTTypeData as String` or `String(kUTTypeData)`; Foundation on Linux has no `CFString` that bridges with
    // `as`, so here they are `String`s, which both spellings accept unchanged.

    /// `UTType.item.identifier`, the identifier MobileCoreServices names `kUTTypeItem`.
    public let kUTTypeItem: String = UniformType.item.identifier
    /// `UTType.content.identifier`, the identifier MobileCoreServices names `kUTTypeContent`.
    public let kUTTypeContent: String = UniformType.content.identifier
    /// `UTType.compositeContent.identifier`, the identifier MobileCoreServices names `kUTTypeCompositeContent`.
    public let kUTTypeCompositeContent: String = UniformType.compositeContent.identifier
    /// `UTType.message.identifier`, the identifier MobileCoreServices names `kUTTypeMessage`.
    public let kUTTypeMessage: String = UniformType.message.identifier
    /// `UTType.contact.identifier`, the identifier MobileCoreServices names `kUTTypeContact`.
    public let kUTTypeContact: String = UniformType.contact.identifier
    /// `UTType.archive.identifier`, the identifier MobileCoreServices names `kUTTypeArchive`.
    public let kUTTypeArchive: String = UniformType.archive.identifier
    /// `UTType.diskImage.identifier`, the identifier MobileCoreServices names `kUTTypeDiskImage`.
    public let kUTTypeDiskImage: String = UniformType.diskImage.identifier
    /// `UTType.data.identifier`, the identifier MobileCoreServices names `kUTTypeData`.
    public let kUTTypeData: String = UniformType.data.identifier
    /// `UTType.directory.identifier`, the identifier MobileCoreServices names `kUTTypeDirectory`.
    public let kUTTypeDirectory: String = UniformType.directory.identifier
    /// `UTType.resolvable.identifier`, the identifier MobileCoreServices names `kUTTypeResolvable`.
    public let kUTTypeResolvable: String = UniformType.resolvable.identifier
    /// `UTType.symbolicLink.identifier`, the identifier MobileCoreServices names `kUTTypeSymLink`.
    public let kUTTypeSymLink: String = UniformType.symbolicLink.identifier
    /// `UTType.executable.identifier`, the identifier MobileCoreServices names `kUTTypeExecutable`.
    public let kUTTypeExecutable: String = UniformType.executable.identifier
    /// `UTType.mountPoint.identifier`, the identifier MobileCoreServices names `kUTTypeMountPoint`.
    public let kUTTypeMountPoint: String = UniformType.mountPoint.identifier
    /// `UTType.aliasFile.identifier`, the identifier MobileCoreServices names `kUTTypeAliasFile`.
    public let kUTTypeAliasFile: String = UniformType.aliasFile.identifier
    /// `UTType.url.identifier`, the identifier MobileCoreServices names `kUTTypeURL`.
    public let kUTTypeURL: String = UniformType.url.identifier
    /// `UTType.fileURL.identifier`, the identifier MobileCoreServices names `kUTTypeFileURL`.
    public let kUTTypeFileURL: String = UniformType.fileURL.identifier
    /// `UTType.text.identifier`, the identifier MobileCoreServices names `kUTTypeText`.
    public let kUTTypeText: String = UniformType.text.identifier
    /// `UTType.plainText.identifier`, the identifier MobileCoreServices names `kUTTypePlainText`.
    public let kUTTypePlainText: String = UniformType.plainText.identifier
    /// `UTType.utf8PlainText.identifier`, the identifier MobileCoreServices names `kUTTypeUTF8PlainText`.
    public let kUTTypeUTF8PlainText: String = UniformType.utf8PlainText.identifier
    /// `UTType.utf16ExternalPlainText.identifier`, the identifier MobileCoreServices names `kUTTypeUTF16ExternalPlainText`.
    public let kUTTypeUTF16ExternalPlainText: String = UniformType.utf16ExternalPlainText.identifier
    /// `UTType.utf16PlainText.identifier`, the identifier MobileCoreServices names `kUTTypeUTF16PlainText`.
    public let kUTTypeUTF16PlainText: String = UniformType.utf16PlainText.identifier
    /// `UTType.delimitedText.identifier`, the identifier MobileCoreServices names `kUTTypeDelimitedText`.
    public let kUTTypeDelimitedText: String = UniformType.delimitedText.identifier
    /// `UTType.commaSeparatedText.identifier`, the identifier MobileCoreServices names `kUTTypeCommaSeparatedText`.
    public let kUTTypeCommaSeparatedText: String = UniformType.commaSeparatedText.identifier
    /// `UTType.tabSeparatedText.identifier`, the identifier MobileCoreServices names `kUTTypeTabSeparatedText`.
    public let kUTTypeTabSeparatedText: String = UniformType.tabSeparatedText.identifier
    /// `UTType.utf8TabSeparatedText.identifier`, the identifier MobileCoreServices names `kUTTypeUTF8TabSeparatedText`.
    public let kUTTypeUTF8TabSeparatedText: String = UniformType.utf8TabSeparatedText.identifier
    /// `UTType.rtf.identifier`, the identifier MobileCoreServices names `kUTTypeRTF`.
    public let kUTTypeRTF: String = UniformType.rtf.identifier
    /// `UTType.html.identifier`, the identifier MobileCoreServices names `kUTTypeHTML`.
    public let kUTTypeHTML: String = UniformType.html.identifier
    /// `UTType.xml.identifier`, the identifier MobileCoreServices names `kUTTypeXML`.
    public let kUTTypeXML: String = UniformType.xml.identifier
    /// `UTType.sourceCode.identifier`, the identifier MobileCoreServices names `kUTTypeSourceCode`.
    public let kUTTypeSourceCode: String = UniformType.sourceCode.identifier
    /// `UTType.assemblyLanguageSource.identifier`, the identifier MobileCoreServices names `kUTTypeAssemblyLanguageSource`.
    public let kUTTypeAssemblyLanguageSource: String = UniformType.assemblyLanguageSource.identifier
    /// `UTType.cSource.identifier`, the identifier MobileCoreServices names `kUTTypeCSource`.
    public let kUTTypeCSource: String = UniformType.cSource.identifier
    /// `UTType.objectiveCSource.identifier`, the identifier MobileCoreServices names `kUTTypeObjectiveCSource`.
    public let kUTTypeObjectiveCSource: String = UniformType.objectiveCSource.identifier
    /// `UTType.swiftSource.identifier`, the identifier MobileCoreServices names `kUTTypeSwiftSource`.
    public let kUTTypeSwiftSource: String = UniformType.swiftSource.identifier
    /// `UTType.cPlusPlusSource.identifier`, the identifier MobileCoreServices names `kUTTypeCPlusPlusSource`.
    public let kUTTypeCPlusPlusSource: String = UniformType.cPlusPlusSource.identifier
    /// `UTType.objectiveCPlusPlusSource.identifier`, the identifier MobileCoreServices names `kUTTypeObjectiveCPlusPlusSource`.
    public let kUTTypeObjectiveCPlusPlusSource: String = UniformType.objectiveCPlusPlusSource.identifier
    /// `UTType.cHeader.identifier`, the identifier MobileCoreServices names `kUTTypeCHeader`.
    public let kUTTypeCHeader: String = UniformType.cHeader.identifier
    /// `UTType.cPlusPlusHeader.identifier`, the identifier MobileCoreServices names `kUTTypeCPlusPlusHeader`.
    public let kUTTypeCPlusPlusHeader: String = UniformType.cPlusPlusHeader.identifier
    /// `UTType.script.identifier`, the identifier MobileCoreServices names `kUTTypeScript`.
    public let kUTTypeScript: String = UniformType.script.identifier
    /// `UTType.appleScript.identifier`, the identifier MobileCoreServices names `kUTTypeAppleScript`.
    public let kUTTypeAppleScript: String = UniformType.appleScript.identifier
    /// `UTType.shellScript.identifier`, the identifier MobileCoreServices names `kUTTypeShellScript`.
    public let kUTTypeShellScript: String = UniformType.shellScript.identifier
    /// `UTType.perlScript.identifier`, the identifier MobileCoreServices names `kUTTypePerlScript`.
    public let kUTTypePerlScript: String = UniformType.perlScript.identifier
    /// `UTType.pythonScript.identifier`, the identifier MobileCoreServices names `kUTTypePythonScript`.
    public let kUTTypePythonScript: String = UniformType.pythonScript.identifier
    /// `UTType.rubyScript.identifier`, the identifier MobileCoreServices names `kUTTypeRubyScript`.
    public let kUTTypeRubyScript: String = UniformType.rubyScript.identifier
    /// `UTType.phpScript.identifier`, the identifier MobileCoreServices names `kUTTypePHPScript`.
    public let kUTTypePHPScript: String = UniformType.phpScript.identifier
    /// `UTType.javaScript.identifier`, the identifier MobileCoreServices names `kUTTypeJavaScript`.
    public let kUTTypeJavaScript: String = UniformType.javaScript.identifier
    /// `UTType.json.identifier`, the identifier MobileCoreServices names `kUTTypeJSON`.
    public let kUTTypeJSON: String = UniformType.json.identifier
    /// `UTType.propertyList.identifier`, the identifier MobileCoreServices names `kUTTypePropertyList`.
    public let kUTTypePropertyList: String = UniformType.propertyList.identifier
    /// `UTType.xmlPropertyList.identifier`, the identifier MobileCoreServices names `kUTTypeXMLPropertyList`.
    public let kUTTypeXMLPropertyList: String = UniformType.xmlPropertyList.identifier
    /// `UTType.binaryPropertyList.identifier`, the identifier MobileCoreServices names `kUTTypeBinaryPropertyList`.
    public let kUTTypeBinaryPropertyList: String = UniformType.binaryPropertyList.identifier
    /// `UTType.pdf.identifier`, the identifier MobileCoreServices names `kUTTypePDF`.
    public let kUTTypePDF: String = UniformType.pdf.identifier
    /// `UTType.rtfd.identifier`, the identifier MobileCoreServices names `kUTTypeRTFD`.
    public let kUTTypeRTFD: String = UniformType.rtfd.identifier
    /// `UTType.flatRTFD.identifier`, the identifier MobileCoreServices names `kUTTypeFlatRTFD`.
    public let kUTTypeFlatRTFD: String = UniformType.flatRTFD.identifier
    /// `UTType.webArchive.identifier`, the identifier MobileCoreServices names `kUTTypeWebArchive`.
    public let kUTTypeWebArchive: String = UniformType.webArchive.identifier
    /// `UTType.image.identifier`, the identifier MobileCoreServices names `kUTTypeImage`.
    public let kUTTypeImage: String = UniformType.image.identifier
    /// `UTType.jpeg.identifier`, the identifier MobileCoreServices names `kUTTypeJPEG`.
    public let kUTTypeJPEG: String = UniformType.jpeg.identifier
    /// `UTType.tiff.identifier`, the identifier MobileCoreServices names `kUTTypeTIFF`.
    public let kUTTypeTIFF: String = UniformType.tiff.identifier
    /// `UTType.gif.identifier`, the identifier MobileCoreServices names `kUTTypeGIF`.
    public let kUTTypeGIF: String = UniformType.gif.identifier
    /// `UTType.png.identifier`, the identifier MobileCoreServices names `kUTTypePNG`.
    public let kUTTypePNG: String = UniformType.png.identifier
    /// `UTType.bmp.identifier`, the identifier MobileCoreServices names `kUTTypeBMP`.
    public let kUTTypeBMP: String = UniformType.bmp.identifier
    /// `UTType.ico.identifier`, the identifier MobileCoreServices names `kUTTypeICO`.
    public let kUTTypeICO: String = UniformType.ico.identifier
    /// `UTType.rawImage.identifier`, the identifier MobileCoreServices names `kUTTypeRawImage`.
    public let kUTTypeRawImage: String = UniformType.rawImage.identifier
    /// `UTType.svg.identifier`, the identifier MobileCoreServices names `kUTTypeScalableVectorGraphics`.
    public let kUTTypeScalableVectorGraphics: String = UniformType.svg.identifier
    /// `UTType.icns.identifier`, the identifier MobileCoreServices names `kUTTypeAppleICNS`.
    public let kUTTypeAppleICNS: String = UniformType.icns.identifier
    /// `UTType.audiovisualContent.identifier`, the identifier MobileCoreServices names `kUTTypeAudiovisualContent`.
    public let kUTTypeAudiovisualContent: String = UniformType.audiovisualContent.identifier
    /// `UTType.movie.identifier`, the identifier MobileCoreServices names `kUTTypeMovie`.
    public let kUTTypeMovie: String = UniformType.movie.identifier
    /// `UTType.video.identifier`, the identifier MobileCoreServices names `kUTTypeVideo`.
    public let kUTTypeVideo: String = UniformType.video.identifier
    /// `UTType.audio.identifier`, the identifier MobileCoreServices names `kUTTypeAudio`.
    public let kUTTypeAudio: String = UniformType.audio.identifier
    /// `UTType.quickTimeMovie.identifier`, the identifier MobileCoreServices names `kUTTypeQuickTimeMovie`.
    public let kUTTypeQuickTimeMovie: String = UniformType.quickTimeMovie.identifier
    /// `UTType.mpeg.identifier`, the identifier MobileCoreServices names `kUTTypeMPEG`.
    public let kUTTypeMPEG: String = UniformType.mpeg.identifier
    /// `UTType.mpeg2Video.identifier`, the identifier MobileCoreServices names `kUTTypeMPEG2Video`.
    public let kUTTypeMPEG2Video: String = UniformType.mpeg2Video.identifier
    /// `UTType.mpeg2TransportStream.identifier`, the identifier MobileCoreServices names `kUTTypeMPEG2TransportStream`.
    public let kUTTypeMPEG2TransportStream: String = UniformType.mpeg2TransportStream.identifier
    /// `UTType.mp3.identifier`, the identifier MobileCoreServices names `kUTTypeMP3`.
    public let kUTTypeMP3: String = UniformType.mp3.identifier
    /// `UTType.mpeg4Movie.identifier`, the identifier MobileCoreServices names `kUTTypeMPEG4`.
    public let kUTTypeMPEG4: String = UniformType.mpeg4Movie.identifier
    /// `UTType.mpeg4Audio.identifier`, the identifier MobileCoreServices names `kUTTypeMPEG4Audio`.
    public let kUTTypeMPEG4Audio: String = UniformType.mpeg4Audio.identifier
    /// `UTType.avi.identifier`, the identifier MobileCoreServices names `kUTTypeAVIMovie`.
    public let kUTTypeAVIMovie: String = UniformType.avi.identifier
    /// `UTType.aiff.identifier`, the identifier MobileCoreServices names `kUTTypeAudioInterchangeFileFormat`.
    public let kUTTypeAudioInterchangeFileFormat: String = UniformType.aiff.identifier
    /// `UTType.wav.identifier`, the identifier MobileCoreServices names `kUTTypeWaveformAudio`.
    public let kUTTypeWaveformAudio: String = UniformType.wav.identifier
    /// `UTType.midi.identifier`, the identifier MobileCoreServices names `kUTTypeMIDIAudio`.
    public let kUTTypeMIDIAudio: String = UniformType.midi.identifier
    /// `UTType.playlist.identifier`, the identifier MobileCoreServices names `kUTTypePlaylist`.
    public let kUTTypePlaylist: String = UniformType.playlist.identifier
    /// `UTType.m3uPlaylist.identifier`, the identifier MobileCoreServices names `kUTTypeM3UPlaylist`.
    public let kUTTypeM3UPlaylist: String = UniformType.m3uPlaylist.identifier
    /// `UTType.folder.identifier`, the identifier MobileCoreServices names `kUTTypeFolder`.
    public let kUTTypeFolder: String = UniformType.folder.identifier
    /// `UTType.volume.identifier`, the identifier MobileCoreServices names `kUTTypeVolume`.
    public let kUTTypeVolume: String = UniformType.volume.identifier
    /// `UTType.package.identifier`, the identifier MobileCoreServices names `kUTTypePackage`.
    public let kUTTypePackage: String = UniformType.package.identifier
    /// `UTType.bundle.identifier`, the identifier MobileCoreServices names `kUTTypeBundle`.
    public let kUTTypeBundle: String = UniformType.bundle.identifier
    /// `UTType.framework.identifier`, the identifier MobileCoreServices names `kUTTypeFramework`.
    public let kUTTypeFramework: String = UniformType.framework.identifier
    /// `UTType.applicationBundle.identifier`, the identifier MobileCoreServices names `kUTTypeApplicationBundle`.
    public let kUTTypeApplicationBundle: String = UniformType.applicationBundle.identifier
    /// `UTType.application.identifier`, the identifier MobileCoreServices names `kUTTypeApplication`.
    public let kUTTypeApplication: String = UniformType.application.identifier
    /// `UTType.unixExecutable.identifier`, the identifier MobileCoreServices names `kUTTypeUnixExecutable`.
    public let kUTTypeUnixExecutable: String = UniformType.unixExecutable.identifier
    /// `UTType.exe.identifier`, the identifier MobileCoreServices names `kUTTypeWindowsExecutable`.
    public let kUTTypeWindowsExecutable: String = UniformType.exe.identifier
    /// `UTType.zip.identifier`, the identifier MobileCoreServices names `kUTTypeZipArchive`.
    public let kUTTypeZipArchive: String = UniformType.zip.identifier
    /// `UTType.gzip.identifier`, the identifier MobileCoreServices names `kUTTypeGNUZipArchive`.
    public let kUTTypeGNUZipArchive: String = UniformType.gzip.identifier
    /// `UTType.bz2.identifier`, the identifier MobileCoreServices names `kUTTypeBzip2Archive`.
    public let kUTTypeBzip2Archive: String = UniformType.bz2.identifier
    /// `UTType.spreadsheet.identifier`, the identifier MobileCoreServices names `kUTTypeSpreadsheet`.
    public let kUTTypeSpreadsheet: String = UniformType.spreadsheet.identifier
    /// `UTType.presentation.identifier`, the identifier MobileCoreServices names `kUTTypePresentation`.
    public let kUTTypePresentation: String = UniformType.presentation.identifier
    /// `UTType.database.identifier`, the identifier MobileCoreServices names `kUTTypeDatabase`.
    public let kUTTypeDatabase: String = UniformType.database.identifier
    /// `UTType.vCard.identifier`, the identifier MobileCoreServices names `kUTTypeVCard`.
    public let kUTTypeVCard: String = UniformType.vCard.identifier
    /// `UTType.toDoItem.identifier`, the identifier MobileCoreServices names `kUTTypeToDoItem`.
    public let kUTTypeToDoItem: String = UniformType.toDoItem.identifier
    /// `UTType.calendarEvent.identifier`, the identifier MobileCoreServices names `kUTTypeCalendarEvent`.
    public let kUTTypeCalendarEvent: String = UniformType.calendarEvent.identifier
    /// `UTType.emailMessage.identifier`, the identifier MobileCoreServices names `kUTTypeEmailMessage`.
    public let kUTTypeEmailMessage: String = UniformType.emailMessage.identifier
    /// `UTType.x509Certificate.identifier`, the identifier MobileCoreServices names `kUTTypeX509Certificate`.
    public let kUTTypeX509Certificate: String = UniformType.x509Certificate.identifier
    /// `UTType.pkcs12.identifier`, the identifier MobileCoreServices names `kUTTypePKCS12`.
    public let kUTTypePKCS12: String = UniformType.pkcs12.identifier
    /// `UTType.log.identifier`, the identifier MobileCoreServices names `kUTTypeLog`.
    public let kUTTypeLog: String = UniformType.log.identifier
    /// `UTType.epub.identifier`, the identifier MobileCoreServices names `kUTTypeElectronicPublication`.
    public let kUTTypeElectronicPublication: String = UniformType.epub.identifier

    /// `UTTagClass.filenameExtension.rawValue` (`public.filename-extension`).
    public let kUTTagClassFilenameExtension: String = UniformTypeTagClass.filenameExtension.rawValue
    /// `UTTagClass.mimeType.rawValue` (`public.mime-type`).
    public let kUTTagClassMIMEType: String = UniformTypeTagClass.mimeType.rawValue
#endif
