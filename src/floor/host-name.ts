/** What an allowedHosts entry may be: a host name (`market-stub`), `.domain` (the domain and its subdomains), or `*`. */
export const HOST_NAME = /^(\*|\.?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*)$/;
