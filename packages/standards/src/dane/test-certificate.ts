/**
 * ../shared/conformance/dnssec-dane/derived-tlsa-cert.pem: a self-signed P-256 certificate with the
 * name www.example.com, valid 2026-11-22 to 2036-11-19, and its TLSA data as
 * ../shared/conformance/vectors.md §6 publishes it (OpenSSL 3, cross-checked with Node).
 */
export const derivedTlsaCertificate = {
  pem: `-----BEGIN CERTIFICATE-----
MIIBpTCCAUugAwIBAgIURanilLpSbsGEItUHk1WzWBC3mkUwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPd3d3LmV4YW1wbGUuY29tMB4XDTI2MTEyMjEwMTgwNloXDTM2
MTExOTEwMTgwNlowGjEYMBYGA1UEAwwPd3d3LmV4YW1wbGUuY29tMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAE4W09v8+2RcoNOFsQXNCTBswlPnnmdv5FX9Kl09yG
htF3Cilcs41UeELs1Uxnp6HVd/Lf+yqsIsUA4XWvZsvbkKNvMG0wHQYDVR0OBBYE
FNLp170ouqqCMTTyazCpxpXIDjZUMB8GA1UdIwQYMBaAFNLp170ouqqCMTTyazCp
xpXIDjZUMA8GA1UdEwEB/wQFMAMBAf8wGgYDVR0RBBMwEYIPd3d3LmV4YW1wbGUu
Y29tMAoGCCqGSM49BAMCA0gAMEUCIEGGiQHpTqN7bepFlOwBhZfcicXAI9McGFfq
3ET5JEL3AiEAsdOFEbc1OMpCKX73Rc/EbcalffEVCiF55cH2yryDI5Y=
-----END CERTIFICATE-----`,
  name: 'www.example.com',
  notAfter: '2036-11-19',
  spkiSha256: '75b946f1b6efb49f10f03f1617302e482a105c2e6d5baae2c2fc4a9676fcafab',
  certSha256: 'cc34ab0268dd712601741b58510cd988537838d7936519115b9f2791eb0e9ec7',
} as const;
