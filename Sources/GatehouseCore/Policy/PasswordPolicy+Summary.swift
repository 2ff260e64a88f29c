extension PasswordPolicy {
    /// The rule in words, for a form's hint: "At least 8 characters, with a digit." or "At least 12
    /// characters, with a digit and an uppercase letter."
    public var summary: String {
        var parts = ["At least \(minLength) characters"]
        if requireDigit { parts.append("a digit") }
        if requireLowercase { parts.append("a lowercase letter") }
        if requireUppercase { parts.append("an uppercase letter") }
        if requireSymbol { parts.append("a symbol") }
        let rules = Array(parts.dropFirst())
        guard let last = rules.last else { return parts[0] + "." }
        let list = rules.count == 1 ? last : rules.dropLast().joined(separator: ", ") + " and " + last
        return parts[0] + ", with " + list + "."
    }
}
