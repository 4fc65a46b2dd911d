package mailer_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"adboost/db/dbtest"
	"adboost/db/mailer"
	"adboost/db/mailer/smtptest"
)

// selfSigned answers a server certificate for 127.0.0.1 and a pool that
// trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "smtptest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, roots
}

// TestSTARTTLS: a server that offers STARTTLS gets the mail, and the
// password, over TLS only; a certificate that does not verify stops the
// delivery (tried again later) before any credential is sent.
func TestSTARTTLS(t *testing.T) {
	t.Parallel()
	cert, roots := selfSigned(t)
	smtp := smtptest.StartTLS(t, "", "mailer", "secret", &tls.Config{Certificates: []tls.Certificate{cert}})

	untrusting := dbtest.New(t)
	ids := insert(t, untrusting, verification("ana.new@example.com"))
	start(t, untrusting, mailer.Config{SMTPURL: "smtp://mailer:secret@" + smtp.Addr}, quiet())
	waitFor(t, "a failed attempt", func() bool { return job(t, untrusting, ids[0]).State == rivertype.JobStateRetryable })
	if msg, _ := lastError(job(t, untrusting, ids[0])); !strings.Contains(msg, "STARTTLS") || len(smtp.Messages()) != 0 {
		t.Fatalf("with an unverified certificate: %q, %d messages", msg, len(smtp.Messages()))
	}

	trusting := dbtest.New(t)
	ids = insert(t, trusting, verification("bob@example.com"))
	start(t, trusting, mailer.Config{SMTPURL: "smtp://mailer:secret@" + smtp.Addr, TLS: &tls.Config{RootCAs: roots}}, quiet())
	completed(t, trusting, ids...)
	got := smtp.Messages()
	if len(got) != 1 || !got[0].TLS || got[0].User != "mailer" || got[0].To[0] != "bob@example.com" {
		t.Fatalf("received %+v, want bob's mail over TLS, authenticated", got)
	}
}
