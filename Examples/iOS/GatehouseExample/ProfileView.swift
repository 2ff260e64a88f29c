import Gatehouse
import SwiftUI

/// GET /me, the name, passkeys, password change, a call to your own API, sign-out (here and everywhere) and account
/// deletion (required by App Store Review Guideline 5.1.1(v)).
struct ProfileView: View {
    @Environment(AuthModel.self) private var auth
    @State private var name = ""
    @State private var confirmingDeletion = false
    @State private var changingPassword = false
    @State private var apiAnswer: String?
    @State private var passkeyName = ""

    var body: some View {
        Form {
            Section("Account") {
                // From the ID token: shown at once, offline too.
                LabeledContent("Email", value: auth.user?.email ?? auth.profile?.email ?? "—")
                if let profile = auth.profile {
                    LabeledContent("Signed in with", value: profile.identities.map(\.provider.capitalized).joined(separator: ", "))
                }
            }
            if auth.profile != nil {
                Section("Name") {
                    TextField("Name", text: $name)
                    Button("Save") { Task { await auth.updateName(name.isEmpty ? nil : name) } }
                }
            }
            if auth.passkeysAvailable {
                PasskeysSection(name: $passkeyName)
            }
            Section("Your API") {
                Button("Call my API") { Task { await callMyAPI() } }
                    .disabled(AppConfiguration.apiURL == nil)
                if let apiAnswer { Text(apiAnswer).font(.footnote.monospaced()) }
            }
            if let message = auth.errorMessage { Text(message).foregroundStyle(.red) }
            Section {
                Button("Change password") { changingPassword = true }
                Button("Sign out") { Task { await auth.signOut() } }
                Button("Sign out on every device") { Task { await auth.signOutEverywhere() } }
                Button("Delete account", role: .destructive) { confirmingDeletion = true }
            }
        }
        .navigationTitle("Profile")
        .task {
            await auth.loadProfile()
            name = auth.profile?.fullName ?? ""
            await auth.loadPasskeys()
        }
        .refreshable {
            await auth.loadProfile()
            await auth.loadPasskeys()
        }
        .sheet(isPresented: $changingPassword) { ChangePasswordView() }
        .confirmationDialog("Delete your account?", isPresented: $confirmingDeletion, titleVisibility: .visible) {
            Button("Delete account", role: .destructive) { Task { await auth.deleteAccount() } }
        } message: {
            Text("Your account and its data are deleted. This cannot be undone.")
        }
    }

    /// Your own backend through `send()`: the token is attached (the ID token here, as the seeds' FastAPI
    /// servers verify), refreshed ahead of expiry, and refreshed once more after a 401.
    private func callMyAPI() async {
        guard let url = AppConfiguration.apiURL else { return }
        do {
            let (data, response) = try await auth.client.send(URLRequest(url: url), token: .id)
            apiAnswer = "HTTP \(response.statusCode): \(String(decoding: data.prefix(200), as: UTF8.self))"
        } catch {
            auth.report(error)
        }
    }
}

/// The current password and a new one; the user's other sessions end.
struct ChangePasswordView: View {
    @Environment(AuthModel.self) private var auth
    @Environment(\.dismiss) private var dismiss
    @State private var current = ""
    @State private var new = ""

    var body: some View {
        NavigationStack {
            Form {
                SecureField("Current password", text: $current).textContentType(.password)
                SecureField("New password", text: $new).textContentType(.newPassword)
                if let message = auth.errorMessage { Text(message).foregroundStyle(.red) }
                Button("Change password") {
                    Task { if await auth.changePassword(current: current, new: new) { dismiss() } }
                }
                .disabled(current.isEmpty || new.isEmpty || auth.isLoading)
            }
            .navigationTitle("Change password")
            .toolbar { ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } } }
        }
    }
}
