;;; eglot.el --- the editor scenario of test/editors/support.ts in Emacs with Eglot  -*- lexical-binding: t -*-

;; Run as `emacs -Q --batch -l <the Eglot block of docs/editor.md> -l eglot.el' in the workspace; writes what it
;; saw as JSON to $ES_REPORT.  A batch Emacs has no command loop: `eglot-ensure' connects, and Flymake starts,
;; from `post-command-hook' and on display, so `es-idle' runs those hooks as the command loop and redisplay would,
;; and lets process output and timers in.  Every wait is for an event, with a deadline.

;;; Code:

(require 'json)
(require 'seq)

;; No native compilation in the background: its subprocess would be this Emacs started without the wrapper.
(setq native-comp-jit-compilation nil)

(defvar es-report (list :diagnostics [] :jsonDiagnostics [] :fixedText "" :formattedText ""))
(defconst es-stay-seconds (/ (string-to-number (getenv "ES_STAY_MS")) 1000.0))

(defun es-idle ()
  "What the command loop and redisplay run between two commands."
  (run-hooks 'post-command-hook 'window-configuration-change-hook)
  (accept-process-output nil 0.05))

(defun es-wait (seconds predicate)
  "Idle until PREDICATE holds or SECONDS have passed; return its last value."
  (let ((deadline (+ (float-time) seconds)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (es-idle))
    value))

(defun es-put (key value)
  (setq es-report (plist-put es-report key value)))

(defun es-open (file)
  "Visit FILE and wait until Eglot manages it."
  (find-file file)
  (unless (es-wait 15 (lambda () (and (bound-and-true-p eglot--managed-mode) (eglot-current-server))))
    (error "Eglot did not connect for %s" file))
  (current-buffer))

(defun es-diagnostics (file)
  "The messages of FILE's diagnostics, once there are some."
  (unless (es-wait 15 #'flymake-diagnostics)
    (error "No diagnostics for %s" file))
  (vconcat (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))

(defun es-quick-fix (text)
  "Apply the preferred quick fix of the diagnostic whose message contains TEXT, as `eglot-code-actions' offers it."
  (let* ((diagnostic (or (seq-find (lambda (d) (string-search text (flymake-diagnostic-text d))) (flymake-diagnostics))
                         (error "No diagnostic mentions %s" text)))
         (actions (eglot-code-actions (flymake-diagnostic-beg diagnostic) (flymake-diagnostic-end diagnostic) "quickfix"))
         (preferred (or (seq-find (lambda (a) (eq (plist-get a :isPreferred) t)) actions)
                        (error "No preferred quick fix among %S" actions))))
    (eglot-execute (eglot-current-server) preferred)))

(defun es-file-text (file)
  (with-temp-buffer
    (insert-file-contents file)
    (buffer-string)))

(defun es-play ()
  (let ((broken (getenv "ES_BROKEN_YAML")) (messy (getenv "ES_MESSY_YAML")) (json (getenv "ES_BROKEN_JSON")))
    (es-open broken)
    (es-put :diagnostics (es-diagnostics broken))
    (es-put :diagnosticsVanished (if (es-wait es-stay-seconds (lambda () (null (flymake-diagnostics)))) t :json-false))
    (es-quick-fix "idelTimeout")
    (save-buffer)
    (es-put :fixedText (es-file-text broken))
    (es-open messy)
    (eglot-format-buffer)
    (save-buffer)
    (es-put :formattedText (es-file-text messy))
    (es-open json)
    (es-put :jsonDiagnostics (es-diagnostics json))
    (es-open (getenv "ES_BASE_YAML"))
    (es-open (getenv "ES_OVERLAY_YAML"))
    (let ((server (eglot-current-server)))
      ;; An answer for the overlay shows the server has taken both in; then it must stay up.
      (jsonrpc-request server :textDocument/documentSymbol
                       (list :textDocument (list :uri (eglot-path-to-uri buffer-file-name))))
      (es-wait es-stay-seconds (lambda () (not (jsonrpc-running-p server)))))))

(defun es-log ()
  "Eglot's events buffer (every message, and how the server's process ended), the server's stderr and *Messages*."
  (mapconcat (lambda (buffer) (with-current-buffer buffer (buffer-string)))
             (seq-filter (lambda (b) (string-match-p "\\*EGLOT\\|\\*Messages\\*" (buffer-name b))) (buffer-list))
             "\n"))

(condition-case-unless-debug failure
    (es-play)
  (error (es-put :error (error-message-string failure))))
(let ((servers (apply #'append (hash-table-values eglot--servers-by-project))))
  (es-put :serverStopped (if (and servers (seq-every-p #'jsonrpc-running-p servers)) :json-false t)))
(es-put :log (es-log))
(with-temp-file (getenv "ES_REPORT")
  (insert (json-encode es-report)))
(kill-emacs 0)

;;; eglot.el ends here
