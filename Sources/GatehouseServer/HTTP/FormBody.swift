import Foundation
import GatehouseCore
import Hummingbird

/// Reads an `application/x-www-form-urlencoded` body (what Apple's `form_post` sends) with
/// Hummingbird's `URLEncodedFormDecoder`: capped like every body, flat string fields only, and no
/// field twice (the decoder refuses duplicate keys).
enum FormBody {
    /// - Parameters:
    ///   - request: The request.
    ///   - reader: The body reader (its cap applies).
    /// - Returns: The fields.
    /// - Throws: ``TransportError`` (413, 415) or `GatehouseError.invalidRequest`.
    static func read(_ request: Request, reader: RequestBodyReader) async throws -> [String: String] {
        guard let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased(),
            type == "application/x-www-form-urlencoded"
        else { throw TransportError(.unsupportedMediaType, "Send the body as application/x-www-form-urlencoded.") }
        let buffer = try await reader.collect(request)
        return try parse(String(buffer: buffer))
    }

    /// - Parameter text: The form.
    /// - Returns: Its fields.
    /// - Throws: `GatehouseError.invalidRequest` for a repeated field, bad percent-encoding or a nested key.
    static func parse(_ text: String) throws(GatehouseError) -> [String: String] {
        do {
            return try URLEncodedFormDecoder().decode([String: String].self, from: text)
        } catch {
            throw .invalidRequest("The form is not a flat list of unique, well-encoded fields.")
        }
    }
}
