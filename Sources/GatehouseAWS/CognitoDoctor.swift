import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Describes the user pool, the app client and the identity providers, and reports each problem the
/// seeds' troubleshooting tables list, with the fix.
public struct CognitoDoctor: Sendable {
    /// What Gatehouse itself is configured with, to compare against the pool.
    public struct Expectations: Sendable {
        public var googleClientIDs: [String]
        public var appleClientIDs: [String]
        public var appleServicesID: String?
        public var appURLScheme: String
        public var hasCredentials: Bool

        public init(googleClientIDs: [String], appleClientIDs: [String], appleServicesID: String?, appURLScheme: String, hasCredentials: Bool) {
            self.googleClientIDs = googleClientIDs
            self.appleClientIDs = appleClientIDs
            self.appleServicesID = appleServicesID
            self.appURLScheme = appURLScheme
            self.hasCredentials = hasCredentials
        }
    }

    let settings: CognitoSettings
    let client: CognitoClient
    let expected: Expectations

    public init(settings: CognitoSettings, client: CognitoClient, expected: Expectations) {
        self.settings = settings
        self.client = client
        self.expected = expected
    }

    public func run(logger: Logger) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        if !expected.hasCredentials {
            findings.append(
                .warning(
                    "aws.credentials",
                    "No AWS credentials (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY) are set.",
                    fix:
                        "Social sign-in, password reset and these checks call Cognito's administrator APIs, which need IAM credentials (see the README's IAM policy)."
                )
            )
        }
        let pool: [String: JSONValue]
        do {
            pool =
                try await client.call("DescribeUserPool", ["UserPoolId": .string(settings.userPoolID)], logger: logger)["UserPool"]?.objectValue
                ?? [:]
            findings.append(.ok("cognito.pool", "User pool \(settings.userPoolID) answers in \(settings.region)."))
        } catch {
            findings.append(Self.unreachable("cognito.pool", "describe the user pool \(settings.userPoolID)", error))
            return findings
        }
        findings += poolFindings(pool)

        do {
            let app =
                try await client.call(
                    "DescribeUserPoolClient",
                    ["UserPoolId": .string(settings.userPoolID), "ClientId": .string(settings.clientID)],
                    logger: logger
                )["UserPoolClient"]?.objectValue ?? [:]
            findings += clientFindings(app)
        } catch {
            findings.append(Self.unreachable("cognito.client", "describe the app client \(settings.clientID)", error))
        }

        do {
            let listed = try await client.call(
                "ListIdentityProviders",
                ["UserPoolId": .string(settings.userPoolID), "MaxResults": 60],
                logger: logger
            )
            for summary in listed["Providers"]?.arrayValue ?? [] {
                guard let name = summary.objectValue?["ProviderName"]?.stringValue else { continue }
                let described = try await client.call(
                    "DescribeIdentityProvider",
                    ["UserPoolId": .string(settings.userPoolID), "ProviderName": .string(name)],
                    logger: logger
                )
                findings += identityProviderFindings(described["IdentityProvider"]?.objectValue ?? [:])
            }
        } catch {
            findings.append(Self.unreachable("cognito.idp", "list the identity providers", error))
        }
        return findings
    }

    static func unreachable(_ id: String, _ what: String, _ error: any Error) -> DoctorFinding {
        let code = (error as? CognitoError)?.code ?? String(describing: type(of: error))
        let fix: String
        switch code {
        case "ResourceNotFoundException": fix = "Check GATEHOUSE_COGNITO_USER_POOL_ID, GATEHOUSE_COGNITO_CLIENT_ID and the region."
        case "AccessDeniedException", "UnrecognizedClientException", "InvalidSignatureException", "ExpiredTokenException":
            fix = "The AWS credentials were refused: check them and the IAM policy in the README."
        default: fix = "Check GATEHOUSE_COGNITO_ENDPOINT / the region and that this machine can reach Cognito."
        }
        return .problem(id, "Could not \(what): \(code).", fix: fix)
    }

    func poolFindings(_ pool: [String: JSONValue]) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let usernameAttributes = pool["UsernameAttributes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if usernameAttributes.contains("email") {
            findings.append(.ok("cognito.pool.username", "Users sign in with their email address."))
        } else {
            findings.append(
                .problem(
                    "cognito.pool.username",
                    "The pool does not use email as the username.",
                    fix:
                        "Gatehouse signs users in by email: create the pool with \"Email\" as the sign-in option (UsernameAttributes=[email]); this cannot be changed on an existing pool."
                )
            )
        }
        let verified = pool["AutoVerifiedAttributes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if !verified.contains("email") {
            findings.append(
                .warning(
                    "cognito.pool.verify",
                    "The pool does not verify email addresses (AutoVerifiedAttributes lacks email).",
                    fix: "Turn on email verification so sign-up sends a code and confirmed users get email_verified=true (linking relies on it)."
                )
            )
        }
        return findings
    }

    func clientFindings(_ app: [String: JSONValue]) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let name = app["ClientName"]?.stringValue ?? settings.clientID
        if let secret = app["ClientSecret"]?.stringValue, !secret.isEmpty {
            findings.append(
                .problem(
                    "cognito.client.secret",
                    "The app client \(name) has a client secret.",
                    fix:
                        "Mobile and web apps cannot keep a secret, and every call would need a SECRET_HASH: create an app client with \"Don't generate a client secret\"."
                )
            )
        } else {
            findings.append(.ok("cognito.client.secret", "The app client has no secret."))
        }
        let flows = Set(app["ExplicitAuthFlows"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        let required: [(String, String, String)] = [
            (
                "ALLOW_ADMIN_USER_PASSWORD_AUTH", "cognito.client.flow.admin",
                "Sign in with Apple and Google (the backend's AdminInitiateAuth) fails with \"Auth flow not enabled for this client\"."
            ),
            ("ALLOW_USER_PASSWORD_AUTH", "cognito.client.flow.password", "Email/password sign-in (InitiateAuth USER_PASSWORD_AUTH) fails."),
            (
                "ALLOW_REFRESH_TOKEN_AUTH", "cognito.client.flow.refresh",
                "Refreshing tokens fails; users are signed out when the access token expires."
            ),
        ]
        for (flow, id, effect) in required {
            if flows.contains(flow) {
                findings.append(.ok(id, "\(flow) is enabled."))
            } else {
                findings.append(
                    .problem(
                        id,
                        "\(flow) is not enabled on the app client \(name).",
                        fix: "\(effect) Add \(flow) under the app client's authentication flows."
                    )
                )
            }
        }
        if app["EnableTokenRevocation"] == .bool(false) {
            findings.append(
                .problem(
                    "cognito.client.revocation",
                    "Token revocation is off on the app client.",
                    fix: "Sign-out calls RevokeToken, which needs EnableTokenRevocation=true on the app client."
                )
            )
        }
        let scheme = expected.appURLScheme.lowercased() + "://"
        for (key, label) in [("CallbackURLs", "callback"), ("LogoutURLs", "sign-out")] {
            guard let urls = app[key]?.arrayValue?.compactMap(\.stringValue), !urls.isEmpty else { continue }
            if urls.contains(where: { $0.lowercased().hasPrefix(scheme) }) {
                findings.append(.ok("cognito.client.\(label)", "A \(label) URL uses the app scheme \(scheme)."))
            } else {
                findings.append(
                    .problem(
                        "cognito.client.\(label)",
                        "No \(label) URL uses the app scheme \(scheme) (found: \(urls.joined(separator: ", "))).",
                        fix:
                            "The hosted UI redirects only to listed URLs: add \(scheme)\(label == "callback" ? "callback" : "signout") to the app client (and keep GATEHOUSE_APP_URL_SCHEME in step with the app's URL scheme)."
                    )
                )
            }
        }
        return findings
    }

    func identityProviderFindings(_ idp: [String: JSONValue]) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        let name = idp["ProviderName"]?.stringValue ?? "?"
        let type = idp["ProviderType"]?.stringValue ?? name
        let details = idp["ProviderDetails"]?.objectValue ?? [:]
        let scopes = details["authorize_scopes"]?.stringValue ?? ""
        if scopes.contains(",") {
            findings.append(
                .problem(
                    "cognito.idp.\(name).scopes-commas",
                    "\(name): authorize_scopes is stored with commas (\"\(scopes)\").",
                    fix:
                        "The provider rejects the sign-in with invalid_scope. Store the scopes separated by spaces, e.g. \"\(scopes.split(whereSeparator: { $0 == "," || $0 == " " }).joined(separator: " "))\" (send the whole ProviderDetails map when updating)."
                )
            )
        }
        if scopes.contains("aws.cognito.signin.user.admin") {
            findings.append(
                .problem(
                    "cognito.idp.\(name).scopes-admin",
                    "\(name): authorize_scopes asks the provider for aws.cognito.signin.user.admin.",
                    fix:
                        "That is a Cognito scope, not the provider's: remove it from the identity provider (keep it on the app client's allowed OAuth scopes if you need it)."
                )
            )
        }
        let clientID = details["client_id"]?.stringValue ?? ""
        switch type {
        case "Google":
            if !expected.googleClientIDs.isEmpty, !expected.googleClientIDs.contains(clientID) {
                findings.append(
                    .problem(
                        "cognito.idp.google.client",
                        "Cognito's Google provider uses client id \(clientID), which GATEHOUSE_GOOGLE_CLIENT_IDS does not list.",
                        fix:
                            "Add the web client id to GATEHOUSE_GOOGLE_CLIENT_IDS, with the iOS and Android client ids (each platform's token carries its own audience)."
                    )
                )
            } else if expected.googleClientIDs.count == 1 {
                findings.append(
                    .warning(
                        "cognito.idp.google.platforms",
                        "GATEHOUSE_GOOGLE_CLIENT_IDS lists one client id.",
                        fix: "iOS tokens carry the iOS client id and Android/web tokens the web client id: list every platform's id, comma-separated."
                    )
                )
            } else if !expected.googleClientIDs.isEmpty {
                findings.append(.ok("cognito.idp.google.client", "Google's client id is among GATEHOUSE_GOOGLE_CLIENT_IDS."))
            }
        case "SignInWithApple":
            if expected.appleClientIDs.contains(clientID) || (expected.appleServicesID != nil && clientID != expected.appleServicesID)
                || !clientID.contains(".")
            {
                findings.append(
                    .problem(
                        "cognito.idp.apple.client",
                        "Cognito's Sign in with Apple provider uses \(clientID.isEmpty ? "no client id" : clientID), which is not the Services ID\(expected.appleServicesID.map { " (\($0))" } ?? "").",
                        fix:
                            "The web flow needs the Services ID (e.g. com.example.app.signin) as client_id; the app's bundle id belongs in GATEHOUSE_APPLE_CLIENT_IDS for native sign-in."
                    )
                )
            } else {
                findings.append(.ok("cognito.idp.apple.client", "Sign in with Apple uses a Services ID."))
            }
        default:
            break
        }
        return findings
    }
}
