import Foundation

/// The seed 003 (Hero365) iOS client's data models, copied unchanged from the seed's "3. Data Models"
/// (`../shared/seeds/003_*.txt`). They sit in a namespace only because the server module has its own
/// `AppleSignInRequest` and `GoogleSignInRequest`; not a member, name or type is changed, so what these
/// decode is what the seed's app decodes.
enum Seed003Client {
    // Request Models
    struct AppleSignInRequest: Codable {
        let id_token: String
        let user_identifier: String
        let email: String?
        let full_name: String?
    }

    struct GoogleSignInRequest: Codable {
        let id_token: String
        let access_token: String?
        let email: String?
        let full_name: String?
        let given_name: String?
        let family_name: String?
        let picture_url: String?
    }

    // Response Models
    struct OAuthSignInResponse: Codable {
        let access_token: String
        let refresh_token: String
        let expires_in: Int
        let token_type: String
        let user: User
        let is_new_user: Bool
    }

    struct User: Codable {
        let id: String
        let email: String?
        let phone: String?
        let full_name: String?
        let is_active: Bool
        let is_superuser: Bool
        let supabase_id: String?
    }

    enum AuthError: Error {
        case invalidResponse
        case missingIdToken
        case networkError
        case decodingError
    }
}
