import Foundation
import GatehouseCore

/// The admin API's query string, read strictly: a parameter the endpoint does not know, one given
/// twice, or one that does not percent-decode is `invalid_request`, never ignored.
struct AdminQuery {
    private let values: [String: String]

    /// Reads `query`.
    /// - Parameters:
    ///   - query: The raw query string.
    ///   - allowed: The parameters the endpoint knows.
    /// - Throws: `invalid_request`.
    init(_ query: String?, allowed: Set<String>) throws {
        guard let items = QueryItems.parse(query) else { throw GatehouseError.invalidRequest("The query string does not decode.") }
        var values: [String: String] = [:]
        for (name, value) in items {
            guard allowed.contains(name) else {
                throw GatehouseError.invalidRequest(
                    "Unknown parameter '\(String(name.prefix(64)))'; known: \(allowed.sorted().joined(separator: ", "))."
                )
            }
            guard values.updateValue(value, forKey: name) == nil else { throw GatehouseError.invalidRequest("'\(name)' is given twice.") }
            guard !value.isEmpty, value.utf8.count <= 320 else { throw GatehouseError.invalidRequest("'\(name)' must be 1 to 320 characters.") }
        }
        self.values = values
    }

    subscript(name: String) -> String? { values[name] }

    /// `limit`: an integer from 1 to `maximum`, or `default`.
    func limit(default fallback: Int, maximum: Int) throws -> Int {
        guard let text = values["limit"] else { return fallback }
        guard let limit = Int(text), (1...maximum).contains(limit) else { throw GatehouseError.invalidRequest("'limit' must be 1 to \(maximum).") }
        return limit
    }

    /// An RFC 3339 time (or a date).
    func time(_ name: String) throws -> Date? {
        guard let text = values[name] else { return nil }
        guard let date = ContractTimestamp.date(text) else { throw GatehouseError.invalidRequest("'\(name)' must be an RFC 3339 time.") }
        return date
    }

    /// A sub or an entry id: printable ASCII without spaces, at most 128 bytes.
    func identifier(_ name: String) throws -> String? {
        guard let text = values[name] else { return nil }
        guard Self.isIdentifier(text) else { throw GatehouseError.invalidRequest("'\(name)' is not an identifier.") }
        return text
    }

    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128 && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
