package server

import "net/http"

// Server serves HTTP.
type Server struct {
	addr string
}

// Start listens on the address.
func (s *Server) Start() error {
	return http.ListenAndServe(s.addr, nil)
}

func New(addr string) *Server {
	return &Server{addr: addr}
}
