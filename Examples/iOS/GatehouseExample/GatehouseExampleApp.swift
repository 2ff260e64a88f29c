import GatehouseClient
import SwiftUI

/// The app entry: one AuthModel for the whole app, restored at launch.
@main
struct GatehouseExampleApp: App {
    @State private var auth = AuthModel(client: GatehouseClient(baseURL: AppConfiguration.serverURL))

    var body: some Scene {
        WindowGroup {
            RootView()
                .environment(auth)
                .task { await auth.restore() }
        }
    }
}

/// Where the server is and which Google client this build uses (Info.plist keys, see README).
enum AppConfiguration {
    static var serverURL: URL {
        let string = Bundle.main.object(forInfoDictionaryKey: "GatehouseServerURL") as? String ?? "http://localhost:8080"
        return URL(string: string) ?? URL(string: "http://localhost:8080")!
    }
}

struct RootView: View {
    @Environment(AuthModel.self) private var auth

    var body: some View {
        NavigationStack {
            if auth.isAuthenticated {
                ProfileView()
            } else if auth.needsConfirmation {
                ConfirmView()
            } else {
                SignInView()
            }
        }
        .overlay { if auth.isLoading { ProgressView().controlSize(.large) } }
    }
}
