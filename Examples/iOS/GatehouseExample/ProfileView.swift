import GatehouseClient
import SwiftUI

/// GET /me, the name, sign-out and account deletion (required by App Store Review Guideline 5.1.1(v)).
struct ProfileView: View {
    @Environment(AuthModel.self) private var auth
    @State private var name = ""
    @State private var confirmingDeletion = false

    var body: some View {
        Form {
            if let profile = auth.profile {
                Section("Account") {
                    LabeledContent("Email", value: profile.email ?? "—")
                    LabeledContent("Signed in with", value: profile.identities.map(\.provider.capitalized).joined(separator: ", "))
                }
                Section("Name") {
                    TextField("Name", text: $name)
                    Button("Save") { Task { await auth.updateName(name.isEmpty ? nil : name) } }
                }
            }
            if let message = auth.errorMessage { Text(message).foregroundStyle(.red) }
            Section {
                Button("Sign out") { Task { await auth.signOut() } }
                Button("Delete account", role: .destructive) { confirmingDeletion = true }
            }
        }
        .navigationTitle("Profile")
        .task {
            await auth.loadProfile()
            name = auth.profile?.fullName ?? ""
        }
        .refreshable { await auth.loadProfile() }
        .confirmationDialog("Delete your account?", isPresented: $confirmingDeletion, titleVisibility: .visible) {
            Button("Delete account", role: .destructive) { Task { await auth.deleteAccount() } }
        } message: {
            Text("Your account and its data are deleted. This cannot be undone.")
        }
    }
}
