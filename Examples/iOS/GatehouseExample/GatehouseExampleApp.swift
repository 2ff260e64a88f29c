import AuthenticationServices
import Gatehouse
import GoogleSignIn
import SwiftUI
import UIKit

/// The app entry: one AuthModel for the whole app, restored at launch.
@main
struct GatehouseExampleApp: App {
    @State private var auth = AuthModel(client: GatehouseClient(baseURL: AppConfiguration.serverURL))

    var body: some Scene {
        WindowGroup {
            RootView()
                .environment(auth)
                .task {
                    await auth.restore()
                    // Users who signed in with Apple and have since revoked the app are signed out.
                    if let appleUserID = UserDefaults.standard.string(forKey: "appleUserID") {
                        _ = try? await auth.client.checkAppleCredential(appleUserID: appleUserID)
                    }
                }
                // GoogleSignIn finishes its flow through the app's URL (the reversed client id scheme).
                .onOpenURL { url in _ = GIDSignIn.sharedInstance.handle(url) }
        }
    }
}

/// Where the server and your own API are (Info.plist keys, see README).
enum AppConfiguration {
    static var serverURL: URL {
        let string = Bundle.main.object(forInfoDictionaryKey: "GatehouseServerURL") as? String ?? "http://localhost:8080"
        return URL(string: string) ?? URL(string: "http://localhost:8080")!
    }

    /// The app client id (`GATEHOUSE_CLIENT_ID`), for the hosted UI.
    static var clientID: String {
        Bundle.main.object(forInfoDictionaryKey: "GatehouseClientID") as? String ?? "gatehouse-example"
    }

    /// The redirect URI registered in `GATEHOUSE_CALLBACK_URLS`, with the app's URL scheme.
    static var callbackURL: URL {
        (Bundle.main.object(forInfoDictionaryKey: "GatehouseCallbackURL") as? String).flatMap(URL.init(string:))
            ?? URL(string: "gatehouseexample://callback")!
    }

    /// An endpoint of your own API that checks Gatehouse's tokens (e.g. the seeds' FastAPI `/api/me`).
    static var apiURL: URL? {
        (Bundle.main.object(forInfoDictionaryKey: "MyAPIURL") as? String).flatMap(URL.init(string:))
    }

    /// The passkey sheet (ASAuthorizationController), presented from the app's key window. The app needs
    /// `webcredentials:<GATEHOUSE_PASSKEY_RP_ID>` in its Associated Domains (see README).
    @MainActor
    static func passkeys(_ client: GatehouseClient) -> PasskeyAuthorization {
        PasskeyAuthorization(client: client) {
            UIApplication.shared.connectedScenes.compactMap { ($0 as? UIWindowScene)?.keyWindow }.first ?? ASPresentationAnchor()
        }
    }
}

struct RootView: View {
    @Environment(AuthModel.self) private var auth

    var body: some View {
        NavigationStack {
            switch auth.phase {
            case .restoring:
                // Never the sign-in screen at launch; a locked Keychain shows its message here.
                VStack(spacing: 12) {
                    ProgressView()
                    if let message = auth.errorMessage {
                        Text(message).multilineTextAlignment(.center)
                        Button("Try again") { Task { await auth.restore() } }
                    }
                }
                .padding()
            case .signedIn:
                ProfileView()
            case .signedOut where auth.needsSecondFactor:
                // The password (or Apple, Google, phone) was right; the account has an authenticator app.
                SecondFactorView()
            case .signedOut where auth.needsConfirmation:
                ConfirmView()
            case .signedOut:
                SignInView()
            }
        }
        .overlay { if auth.isLoading { ProgressView().controlSize(.large) } }
    }
}
