// swift-format-ignore-file
// Seed 001's `CustomModule` and `CustomModuleType`, copied verbatim from the seed (shared/seeds/001; the blog's
// 4-space presentation indent removed). The seed shows no import line (on iOS it relies on UIKit's); the one
// line added is `import TransferKitCompatibility`. Compiled in Swift 5 mode. Not reformatted or linted.
import TransferKitCompatibility

final class CustomModule : NSObject , NSItemProviderWriting , Codable,NSItemProviderReading {
    
    let type : CustomModuleType
    
    init(type:CustomModuleType) {
        self.type = type
    }

    static var writableTypeIdentifiersForItemProvider: [String] {
        return [String(kUTTypeData)]
    }
    
    func loadData(withTypeIdentifier typeIdentifier: String, forItemProviderCompletionHandler completionHandler: @escaping (Data?, Error?) -> Void) -> Progress? {
        let progress = Progress(totalUnitCount: 100)
            do {
                let data = try JSONEncoder().encode(self)
                progress.completedUnitCount = 100
                completionHandler(data, nil)
            } catch {
                completionHandler(nil, error)
            }
            return progress
    }
    static var readableTypeIdentifiersForItemProvider: [String] {
           return [String(kUTTypeData)]
       }
       
    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> CustomModule {
       do {
           let subject = try JSONDecoder().decode(CustomModule.self, from: data)
           return subject
       } catch {
           fatalError()
       }
    }
    
    
}

enum CustomModuleType : Codable {
    
    case Button
    case Switch
    
    enum ErrorType: Error {
            case encoding
            case decoding
        }
    init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer()
        let decodedValue = try value.decode(String.self)
        switch decodedValue {
        case "button":
            self = .Button
        case "switch":
            self = .Switch
        
        default:
            throw ErrorType.decoding
        }
    }
    
    
    func encode(to encoder: Encoder) throws {
        var container = try encoder.singleValueContainer()
        switch self {
        case .Button:
            try container.encode("button")
        case .Switch:
            try container.encode("switch")
        }
    }
}
