import GatehouseCore
import GatehouseInfrastructure
import Hummingbird
import NIOCore

/// The files that let apps use the site's passkeys: `apple-app-site-association` (`webcredentials`)
/// and `assetlinks.json` (`get_login_creds`), from `GATEHOUSE_PASSKEY_APPLE_APP_IDS` and
/// `GATEHOUSE_PASSKEY_ANDROID_APPS`. Apple's CDN and Google's verifier fetch them from the RP id's
/// host, as `application/json`, without redirects; a file with nothing to say is 404.
struct AppAssociationController {
    let appleAppIDs: [String]
    let androidApps: [PasskeyConfiguration.AndroidApp]

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/.well-known/apple-app-site-association", use: apple)
        group.get("/.well-known/assetlinks.json", use: android)
    }

    @Sendable func apple(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard !appleAppIDs.isEmpty else { throw GatehouseError(.notFound, "No iOS app is associated (GATEHOUSE_PASSKEY_APPLE_APP_IDS).") }
        return Self.json(["webcredentials": ["apps": .array(appleAppIDs.map(JSONValue.string))]])
    }

    @Sendable func android(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard !androidApps.isEmpty else { throw GatehouseError(.notFound, "No Android app is associated (GATEHOUSE_PASSKEY_ANDROID_APPS).") }
        return Self.json(
            .array(
                androidApps.map { app in
                    [
                        "relation": ["delegate_permission/common.get_login_creds"],
                        "target": [
                            "namespace": "android_app", "package_name": .string(app.package), "sha256_cert_fingerprints": [.string(app.fingerprint)],
                        ],
                    ]
                }
            )
        )
    }

    static func json(_ value: JSONValue) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
            body: .init(byteBuffer: ByteBuffer(bytes: value.serialized()))
        )
    }
}
