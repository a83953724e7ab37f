import { Component, type ReactNode } from 'react';

/** Last line of defence: a rendering bug shows a message, never a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  render() {
    if (this.state.error) {
      return (
        <div className="fatal" role="alert">
          <h1>ftlscope hit a problem</h1>
          <p>{this.state.error.message}</p>
          <button type="button" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      );
    }
    return this.props.children;
  }
}
