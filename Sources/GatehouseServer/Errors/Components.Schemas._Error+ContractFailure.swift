import GatehouseAPI

/// The contract's error body, `{"error": {"code", "message"}}` (and `mfa_token` with `mfa_required`),
/// from the document's `Error` schema.
extension Components.Schemas._Error {
    /// The body of a failure. Every wire code a JSON route answers is in the schema's enumeration
    /// (`ContractBodyTests` checks each); the Cognito-API-only `invalid_session` never comes here.
    /// - Parameter failure: The refusal.
    init(_ failure: some ContractFailure) {
        let code = _ErrorPayload.CodePayload(rawValue: failure.wireCode) ?? .internalError
        self.init(error: .init(code: code, message: failure.message, mfaToken: failure.mfaToken))
    }
}
