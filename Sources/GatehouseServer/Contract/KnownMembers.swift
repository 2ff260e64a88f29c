/// Refuses a JSON object member a request type does not declare (for bodies whose schema says
/// `additionalProperties: false`, where a typo must not pass as "unchanged").
enum KnownMembers {
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws when the object has a member outside `known`.
    /// - Parameters:
    ///   - decoder: The body's decoder.
    ///   - known: The declared member names.
    /// - Throws: `DecodingError.dataCorrupted` naming nothing (the caller's message is generic).
    static func check(_ decoder: any Decoder, _ known: [String]) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if container.allKeys.contains(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "an unknown member"))
        }
    }
}
