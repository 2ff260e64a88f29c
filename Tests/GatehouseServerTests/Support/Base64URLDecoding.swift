import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Decodes a JWT segment into a JSON object.
enum Base64URLDecoding {
    static func decode(_ segment: String) -> [String: Any]? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
