// swift-format-ignore-file
// Seed 000's `Model`, copied verbatim from the seed (shared/seeds/000) with only the import line changed
// (`import MobileCoreServices` → `import TransferKitCompatibility`). Compiled in Swift 5 mode, as such apps are.
// Not reformatted or linted: it is adopter code and must stay byte-for-byte the seed's.
import TransferKitCompatibility

final class Model: NSObject, Codable, NSItemProviderReading, NSItemProviderWriting {
    
    let name: String
    let character: String
    let favorite: String
    
    init(name: String, character: String, favorite: String) {
        self.name = name
        self.character = character
        self.favorite = favorite

    }
    
    static var readableTypeIdentifiersForItemProvider: [String] {
        return [(kUTTypeData) as String]
    }
    
    static func object(withItemProviderData data: Data, typeIdentifier: String) throws -> Model {
        let decoder = JSONDecoder()
        do {
            let model = try decoder.decode(Model.self, from: data)
            return model
        } catch {
            fatalError()
        }
    }
    
    static var writableTypeIdentifiersForItemProvider: [String] {
        return [(kUTTypeData) as String]
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
    
}
