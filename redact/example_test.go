package redact_test

import (
	"fmt"
	"os"

	"github.com/guard-dev/guard/redact"
)

func Example() {
	r := redact.New([]string{"DEPLOY_TOKEN=tok-4f9a8b7c6d"})

	fmt.Println(r.String("git clone https://bob:hunter2@git.example.com/x.git"))
	fmt.Println(r.String(`curl -H "Authorization: Bearer abc.def.ghi" https://api.example.com`))
	fmt.Println(r.String("deploy --key tok-4f9a8b7c6d"))
	fmt.Println(r.String("mysql --password=$DB_PASS app"))

	w := r.Writer(os.Stdout)
	fmt.Fprint(w, "password=")
	fmt.Fprintln(w, "correct-horse")
	w.Close()
	// Output:
	// git clone https://bob:[REDACTED:url-password]@git.example.com/x.git
	// curl -H "Authorization: Bearer [REDACTED:authorization]" https://api.example.com
	// deploy --key [REDACTED:env:DEPLOY_TOKEN]
	// mysql --password=$DB_PASS app
	// password=[REDACTED:credential]
}
