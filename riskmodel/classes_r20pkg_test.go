package riskmodel

import "testing"

// r20 look-alike packages and owners: the popular lists now cover scientific, network,
// security and data-engineering PyPI projects, Go tools installed by module path, more NuGet
// and npm vendor scopes; a letter dropped from a short word of a long name is a slip; R and
// Julia installs written as code are read for the GitHub account and the repository they
// fetch from. Each class has its real neighbours beside it.
func TestClassR20PackageLookalikes(t *testing.T) {
	runDevCases(t, []devCase{
		// PyPI names of whole fields the top list lacked.
		{`pip install netcdff4`, Deny, "pkg.typosquat", "doubled letter of a scientific package"},
		{`pip install --user nornri`, Deny, "pkg.typosquat", "swap in a network-automation package"},
		{`pip install pwnt00ls`, Deny, "pkg.typosquat", "digits for letters in a security tool"},
		{`uv add apache-airflwo`, Deny, "pkg.typosquat", "swap in a word of a data-engineering package"},
		{`pip install netcdf4 xarray`, Allow, "", "the real packages"},
		{`pip install scapy`, Allow, "", "the real scapy"},
		{`pip install scrapy`, Allow, "", "scrapy is no slip of scapy"},
		{`pip install pyaml`, Allow, "", "a real near neighbour listed itself"},
		{`pip install unicorn`, Allow, "", "unicorn is no slip of uvicorn"},
		// Go tools by module path: digit or capital for a letter, slips in the owner.
		{`go install github.com/projectdiscovery/subf1nder/v2/cmd/subfinder@latest`, Deny, "pkg.typosquat", "digit for a letter in the repository"},
		{`go install github.com/projectdlscovery/httpx/cmd/httpx@latest`, Deny, "pkg.typosquat", "l for i in the owner"},
		{`go install github.com/aquasecurrity/trivy/cmd/trivy@latest`, Deny, "pkg.typosquat", "doubled letter in the owner"},
		{`go install github.com/projectdiscovery/katana/cmd/katana@latest`, Allow, "", "the real tool"},
		{`go install github.com/golang-jwt/jwt/v5/cmd/jwt@latest`, Allow, "", "an organisation name joined to a word that is no imitation"},
		{`pip install git+https://github.com/jtan-dev/pydantic-settings.git@fix`, Ask, "pkg.untrusted-source", "a person's account one substituted letter from an organisation is no imitation"},
		// NuGet: a letter dropped from a short word of a long name.
		{`dotnet add package Serilog.Sinks.Fle`, Deny, "pkg.typosquat", "letter dropped from a short word"},
		{`dotnet add package Polly.Cre`, Deny, "pkg.typosquat", "letter dropped from a four-letter word"},
		{`dotnet add package Serilog.Sinks.File`, Allow, "", "the real package"},
		{`dotnet add package System.Text.Json`, Allow, "", "a real family member"},
		// npm vendor scopes.
		{`npm i -g @shopfiy/cli`, Deny, "pkg.typosquat", "swap in a vendor scope"},
		{`npm install @sap/cds-dk`, Allow, "", "the real vendor scope"},
		// R and Julia installs written as code.
		{`julia -e 'using Pkg; Pkg.add(url="https://github.com/JuIiaData/DataFrames.jl")'`, Deny, "pkg.typosquat", "capital I for l in a Julia organisation"},
		{`Rscript -e 'devtools::install_github("r-1ib/testthat")'`, Deny, "pkg.typosquat", "digit for a letter in an R organisation"},
		{`Rscript -e 'pak::pkg_install("tidyverse-official/ggplot2")'`, Deny, "pkg.typosquat", "organisation joined to an imitation word"},
		{`pip install git+https://github.com/hugginface/transformers.git`, Deny, "pkg.typosquat", "letter dropped from a long owner in a pip git URL"},
		{`julia -e 'using Pkg; Pkg.add(url="https://github.com/JuliaData/DataFrames.jl")'`, Allow, "", "the real organisation"},
		{`Rscript -e 'remotes::install_github("r-lib/testthat")'`, Allow, "", "the real organisation"},
		{`Rscript -e 'install.packages("data.table", repos = "https://cloud.r-project.org")'`, Allow, "", "CRAN's own cloud mirror"},
		{`Rscript -e 'install.packages("arrow", repos = c("https://apache.r-universe.dev", CRAN = "https://cran.r-project.org"))'`, Allow, "", "R-universe and CRAN"},
		{`Rscript -e 'install.packages("ggplot2", repos = "http://pkgs.example-stats.net/cran")'`, Ask, "pkg.inline-index", "a repository that is not CRAN"},
		{`julia -e 'using Pkg; Pkg.Registry.add(RegistrySpec(url = "https://git.example.org/julia/Registry"))'`, Ask, "pkg.inline-index", "a registry that is not General"},
		{`julia -e 'using Pkg; Pkg.Registry.add("General")'`, Allow, "", "the General registry by name"},
	})
}
