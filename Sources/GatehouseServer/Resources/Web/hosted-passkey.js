// Passkeys on the hosted sign-in page (/login), served from /assets/ because the hosted pages' policy
// allows script from this origin only (no inline script). The page works without it: the button's area
// stays hidden and the password form is the page.
//
// "Sign in with a passkey" asks POST /auth/passkey/options for request options without an email (so the
// authenticator offers its discoverable credentials), runs navigator.credentials.get, and posts the
// AuthenticationResponseJSON in the page's passkey form (which carries the app's authorization request
// and the page's CSRF token, like the password form) to /login/passkey; the server answers as the
// password form's post does: back to the app with a code, or this page with the refusal.
//
// Where the browser offers passkeys in autofill (conditional mediation), a background request waits for
// the user to pick one in the email field's suggestions; it is aborted before the button's ceremony (only
// one WebAuthn request may be pending), renewed before its challenge expires, not renewed after the
// browser or the user declines it, and not started on a page that answers a refused passkey.
(() => {
  'use strict';

  const area = document.getElementById('passkey-signin-panel');
  const form = document.getElementById('form-passkey');
  const field = document.getElementById('passkey-credential');
  const button = document.getElementById('passkey-signin');
  const problem = document.getElementById('passkey-error');
  if (!area || !form || !field || !button || !window.PublicKeyCredential || !navigator.credentials || !window.GatehouseWebAuthn) return;
  area.hidden = false;

  const RENEW_MS = 4 * 60 * 1000; // the server's challenges last 5 minutes
  let autofill = null; // { controller, settled, timer } while a conditional request waits
  let autofillReady = false;

  const { requestOptions, credentialJSON } = window.GatehouseWebAuthn; // webauthn-json.js, loaded first

  async function options() {
    const answer = await fetch('/auth/passkey/options', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', credentials: 'same-origin', cache: 'no-store',
    });
    if (!answer.ok) throw new Error('passkey options: HTTP ' + answer.status);
    return requestOptions(await answer.json());
  }

  function say(text) {
    problem.textContent = text;
    problem.hidden = !text;
    if (text) problem.focus();
  }

  // Hands the assertion to the server with the page's form: a top-level post, as the password form's.
  function submit(credential) {
    field.value = JSON.stringify(credentialJSON(credential));
    form.dataset.state = 'submitting'; // for tests and style sheets
    button.disabled = true;
    form.submit();
  }

  function armAutofill() {
    // Not on a page that answers a refused passkey (data-autofill="off"): autofill would offer it again at once.
    if (!autofillReady || form.dataset.state === 'submitting' || form.dataset.autofill === 'off') return;
    if (autofill) {
      if (autofill.controller.signal.aborted) autofill.settled.then(armAutofill); // one being stopped: after it ends
      return;
    }
    const entry = { controller: new AbortController(), timer: null };
    autofill = entry;
    form.dataset.passkeyAutofill = 'waiting'; // for tests: a conditional request is pending
    entry.settled = waitForAutofill(entry).finally(() => {
      clearTimeout(entry.timer);
      if (autofill === entry) {
        autofill = null;
        delete form.dataset.passkeyAutofill;
      }
    });
    entry.settled.then((credential) => { if (credential) submit(credential); });
  }

  async function waitForAutofill(entry) {
    try {
      const publicKey = await options();
      if (entry.controller.signal.aborted) return null;
      entry.timer = setTimeout(() => { stopAutofill().then(armAutofill); }, RENEW_MS);
      return await navigator.credentials.get({ mediation: 'conditional', publicKey, signal: entry.controller.signal });
    } catch (e) {
      return null; // aborted, declined, or the server unreachable: the button still works
    }
  }

  async function stopAutofill() {
    const entry = autofill;
    if (!entry) return;
    entry.controller.abort();
    await entry.settled;
  }

  button.addEventListener('click', async () => {
    button.disabled = true;
    say('');
    try {
      await stopAutofill();
      const credential = await navigator.credentials.get({ publicKey: await options() });
      if (credential) {
        submit(credential);
        return;
      }
    } catch (e) {
      const name = e && e.name;
      // A cancelled or timed-out ceremony is not an error worth showing.
      if (name !== 'NotAllowedError' && name !== 'AbortError') {
        say(name === 'SecurityError' ? 'Passkeys do not work on this address.' : 'The passkey could not be used. Please try again.');
      }
    }
    button.disabled = false;
    armAutofill();
  });

  // A page shown again from the back-forward cache has a form that was sent: make it usable again.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    delete form.dataset.state;
    button.disabled = false;
    armAutofill();
  });

  if (typeof PublicKeyCredential.isConditionalMediationAvailable === 'function') {
    PublicKeyCredential.isConditionalMediationAvailable().then((available) => {
      autofillReady = available === true;
      armAutofill();
    }, () => {});
  }
})();
