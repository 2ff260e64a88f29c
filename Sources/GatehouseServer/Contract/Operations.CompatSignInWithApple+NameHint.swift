import GatehouseAPI

extension Operations.CompatSignInWithApple.Input.Body.JsonPayload {
    /// The display name to keep when none is known: the seed 003 client sends Apple's missing name as
    /// `""`, which means none.
    var nameHint: String? { fullName?.isEmpty == false ? fullName : nil }
}
