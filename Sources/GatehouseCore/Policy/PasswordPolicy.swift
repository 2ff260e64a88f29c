import Foundation

/// The password rules. The default is the seeds' (at least 8 characters with a digit) plus a refusal
/// of the most common passwords and of the account's own email address.
public struct PasswordPolicy: Sendable, Equatable {
    /// The shortest password, in characters (Unicode scalars); at least 1.
    public var minLength: Int
    /// In characters (Unicode scalars); the UTF-8 length is also capped before hashing.
    public var maxLength: Int
    /// Require an ASCII digit `0`–`9`.
    public var requireDigit: Bool
    /// Require a lowercase letter (any script).
    public var requireLowercase: Bool
    /// Require an uppercase letter (any script).
    public var requireUppercase: Bool
    /// Require a character that is neither a letter nor an ASCII digit.
    public var requireSymbol: Bool
    /// Refuse passwords on the built-in list of the most common ones (matched exactly).
    var rejectCommon: Bool

    /// A policy; out-of-range lengths are clamped rather than refused.
    /// - Parameters:
    ///   - minLength: The shortest password in characters; raised to at least 1.
    ///   - maxLength: The longest in characters; kept between `minLength` and 1,024 (hashing cost is bounded).
    ///   - requireDigit: Require a digit.
    ///   - requireLowercase: Require a lowercase letter.
    ///   - requireUppercase: Require an uppercase letter.
    ///   - requireSymbol: Require a symbol.
    ///   - rejectCommon: Refuse the most common passwords.
    public init(
        minLength: Int = 8,
        maxLength: Int = 256,
        requireDigit: Bool = true,
        requireLowercase: Bool = false,
        requireUppercase: Bool = false,
        requireSymbol: Bool = false,
        rejectCommon: Bool = true
    ) {
        self.minLength = max(1, minLength)
        self.maxLength = max(self.minLength, min(maxLength, 1024))
        self.requireDigit = requireDigit
        self.requireLowercase = requireLowercase
        self.requireUppercase = requireUppercase
        self.requireSymbol = requireSymbol
        self.rejectCommon = rejectCommon
    }

    /// Checks a new password against every rule, in order, and stops at the first that fails.
    /// - Parameters:
    ///   - password: The candidate, as the client sent it.
    ///   - email: The account's address, if known: the password may not equal it or its local part (case-insensitive).
    /// - Throws: `invalid_password` with a message that says which rule failed; also when the UTF-8
    ///   form exceeds ``ScryptPasswordHasher/maxPasswordBytes``.
    public func validate(_ password: String, email: EmailAddress?) throws(GatehouseError) {
        func fail(_ message: String) -> GatehouseError { GatehouseError(.invalidPassword, message) }
        let scalars = password.unicodeScalars
        if scalars.count < minLength { throw fail("The password must be at least \(minLength) characters long.") }
        if scalars.count > maxLength || password.utf8.count > ScryptPasswordHasher.maxPasswordBytes {
            throw fail("The password must be at most \(maxLength) characters long.")
        }
        if requireDigit, !scalars.contains(where: { ("0"..."9").contains($0) }) {
            throw fail("The password must contain at least one digit.")
        }
        if requireLowercase, !scalars.contains(where: { $0.properties.isLowercase }) {
            throw fail("The password must contain a lowercase letter.")
        }
        if requireUppercase, !scalars.contains(where: { $0.properties.isUppercase }) {
            throw fail("The password must contain an uppercase letter.")
        }
        if requireSymbol, !scalars.contains(where: { !$0.properties.isAlphabetic && !("0"..."9").contains($0) }) {
            throw fail("The password must contain a symbol.")
        }
        if rejectCommon, CommonPasswords.contains(password) {
            throw fail("This password is too common. Choose a less predictable one.")
        }
        if let email, password.lowercased() == email.key || password.lowercased() == email.key.split(separator: "@").first.map(String.init) {
            throw fail("The password must not be your email address.")
        }
    }
}
