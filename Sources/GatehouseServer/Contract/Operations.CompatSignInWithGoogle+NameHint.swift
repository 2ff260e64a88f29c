import GatehouseAPI

extension Operations.CompatSignInWithGoogle.Input.Body.JsonPayload {
    /// The display name to keep when none is known: `full_name`, else `given_name` and `family_name`
    /// joined (an empty one, as the seed 003 client sends a missing name, counts as none).
    var nameHint: String? {
        if let fullName, !fullName.isEmpty { return fullName }
        let parts = [givenName, familyName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
