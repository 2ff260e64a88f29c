extension PasswordPolicy {
    /// The rule in words, for a form's hint: "At least 8 characters, with a digit."
    public var summary: String {
        var parts = ["At least \(minLength) characters"]
        if requireDigit { parts.append("a digit") }
        if requireLowercase { parts.append("a lowercase letter") }
        if requireUppercase { parts.append("an uppercase letter") }
        if requireSymbol { parts.append("a symbol") }
        return parts.count == 1 ? parts[0] + "." : parts[0] + ", with " + parts.dropFirst().joined(separator: ", ") + "."
    }
}
