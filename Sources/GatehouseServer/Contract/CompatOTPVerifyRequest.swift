import GatehouseCore

/// `POST /api/v1/auth/otp/verify` (seed 003, Hero365): the number and the texted code, as `code` or
/// as `token` (Supabase's `verifyOtp` name, which a backend proxying to Supabase passes through).
public struct CompatOTPVerifyRequest: ContractRequest {
    public static let fields: [ContractField] = [
        .required("phone", maxLength: ContractLimits.phone), .optional("code", maxLength: ContractLimits.code),
        .optional("token", maxLength: ContractLimits.code),
    ]
    public let phone: String
    public let code: String?
    public let token: String?

    /// The code, under either name.
    /// - Throws: `invalid_request` when neither is sent, or both differ.
    public func presentedCode() throws -> String {
        switch (code, token) {
        case (let code?, nil), (nil, let code?): return code
        case (let code?, let token?) where code == token: return code
        case (_?, _?): throw GatehouseError.invalidRequest("Send the code as code or as token, not two different values.")
        case (nil, nil): throw GatehouseError.invalidRequest("The field code is required.")
        }
    }
}
