import Foundation
import GatehouseCore
import Hummingbird

/// Reads an `application/x-www-form-urlencoded` body (what Apple's `form_post` sends): capped,
/// UTF-8, no duplicate fields.
enum FormBody {
    static func read(_ request: Request, limit: Int) async throws -> [String: String] {
        guard let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(),
            type == "application/x-www-form-urlencoded"
        else { throw GatehouseError(.unsupportedMediaType, "Send the body as application/x-www-form-urlencoded.") }
        let buffer = try await JSONBody.collect(request, limit: limit)
        return try parse(String(buffer: buffer))
    }

    static func parse(_ text: String) throws(GatehouseError) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw .invalidRequest("The form is not valid UTF-8 percent-encoding.")
            }
            if fields.updateValue(value, forKey: name) != nil { throw .invalidRequest("The form repeats the field '\(name.prefix(32))'.") }
        }
        return fields
    }

    private static func decode(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
