extension Migration {
    /// Each signing key records its JWS algorithm (`GATEHOUSE_TOKEN_ALG`): `RS256` for every key made
    /// before (all RSA-2048), `ES256` for a P-256 key. The private key is sealed DER either way.
    static let signingKeyAlgorithm = Migration(
        version: 19,
        name: "signing key algorithm",
        statements: [
            "ALTER TABLE gh_signing_keys ADD COLUMN alg TEXT NOT NULL DEFAULT 'RS256'"
        ]
    )
}
