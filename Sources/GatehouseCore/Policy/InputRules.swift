import Foundation

/// The input rules every identity provider shares, applied once by the use cases before a provider
/// sees the value.
enum InputRules {
    /// The longest display name, in Unicode scalars.
    static let maxDisplayNameLength = 256

    /// A display name as stored: trimmed, `nil` when empty.
    /// - Parameters:
    ///   - raw: What the client sent, if anything.
    ///   - member: The request member it came in, for the refusal's message.
    /// - Returns: The trimmed name, or `nil` for none.
    /// - Throws: `invalid_request` for a name over 256 characters or one with control characters.
    static func displayName(_ raw: String?, member: String = "full_name") throws(GatehouseError) -> String? {
        guard let raw else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        guard trimmed.unicodeScalars.count <= maxDisplayNameLength else { throw .invalidRequest("'\(member)' is longer than 256 characters.") }
        let hasControl = trimmed.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format && scalar != "\u{200D}"
        }
        guard !hasControl else {
            throw .invalidRequest("'\(member)' contains control characters.")
        }
        return trimmed
    }

    /// A one-time code as users type it: digits, perhaps with spaces or a dash in the middle.
    /// - Parameter code: What the client sent.
    /// - Returns: The code without spaces and dashes.
    static func code(_ code: String) -> String {
        String(code.unicodeScalars.filter { $0 != " " && $0 != "-" }.map(Character.init))
    }
}
