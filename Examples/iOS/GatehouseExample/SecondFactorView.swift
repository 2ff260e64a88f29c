import Gatehouse
import SwiftUI

/// The second step of a sign-in: the code from the authenticator app, or a recovery code. Shown while
/// `auth.needsSecondFactor`; a wrong code stays here, an expired step (5 minutes) goes back to sign-in.
struct SecondFactorView: View {
    @Environment(AuthModel.self) private var auth
    @State private var code = ""

    var body: some View {
        Form {
            Section {
                Text("Enter the 6-digit code from your authenticator app, or one of your recovery codes.")
                TextField("Code", text: $code)
                    .textContentType(.oneTimeCode)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                Button("Verify") { Task { await auth.submitSecondFactor(code: code) } }
                    .disabled(code.isEmpty || auth.isLoading)
            }
            if let message = auth.errorMessage {
                Section { Text(message).foregroundStyle(.red) }
            }
        }
        .navigationTitle("Two-factor code")
        .toolbar {
            ToolbarItem(placement: .cancellationAction) { Button("Back") { auth.cancelSecondFactor() } }
        }
    }
}
