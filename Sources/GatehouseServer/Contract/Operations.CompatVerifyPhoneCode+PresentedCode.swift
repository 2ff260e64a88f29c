import GatehouseAPI
import GatehouseCore

extension Operations.CompatVerifyPhoneCode.Input.Body.JsonPayload {
    /// The texted code, sent as `code` or as `token` (Supabase's `verifyOtp` name, which a backend
    /// proxying to Supabase passes through); both only if they are equal.
    /// - Returns: The code.
    /// - Throws: `GatehouseError.invalidRequest` when neither or two different values were sent.
    func presentedCode() throws -> String {
        switch (code, token) {
        case (let code?, nil), (nil, let code?): return code
        case (let code?, let token?) where code == token: return code
        case (_?, _?): throw GatehouseError.invalidRequest("Send the code as code or as token, not two different values.")
        case (nil, nil): throw GatehouseError.invalidRequest("The field code is required.")
        }
    }
}
