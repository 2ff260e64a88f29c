import Testing

/// PyJWT (`Scripts/verify_tokens.py`) as a verifier no one here wrote: it fetches the app's JWKS over
/// HTTP and checks a sign-in's ID and access tokens (signature, `alg`, issuer, audience or `client_id`).
enum IndependentVerifier {
    /// Expects PyJWT to accept the tokens of `signIn`.
    /// - Parameters:
    ///   - signIn: A sign-in's answer (`id_token`, `access_token`).
    ///   - port: The live app's port.
    ///   - algorithm: The algorithm the tokens must carry.
    static func expectAccepts(_ signIn: Reply, port: Int, algorithm: String = "RS256") async throws {
        let arguments = [
            "http://127.0.0.1:\(port)/.well-known/jwks.json", "http://gatehouse.test", "test-client", signIn.string("id_token"),
            signIn.string("access_token"), algorithm,
        ]
        if let result = try await PythonScript.run("verify_tokens.py", arguments: arguments, requiring: "jwt") {
            #expect(result.status == 0 && result.output.contains("OK"), "\(result.output)")
        }
    }
}
