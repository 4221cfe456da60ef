import { Button, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface PageErrorBoundaryProps {
  children: ReactNode;
  /** Shown instead of the page message, e.g. nothing for a dialog whose code failed to load. */
  fallback?: ReactNode;
}

interface PageErrorBoundaryState {
  failed: boolean;
}

/**
 * Catches a page that throws or whose code fails to load (typically after a new release replaced the
 * old chunks). It sits inside the layout, so header, sidebar and footer stay usable; the layout keys it
 * by path, so navigating away clears the error.
 */
export class PageErrorBoundary extends Component<PageErrorBoundaryProps, PageErrorBoundaryState> {
  override state: PageErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): PageErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    if (this.props.fallback !== undefined) return this.props.fallback;
    return (
      <Stack gap="md" maw={560} py="xl">
        <Title order={1}>Something went wrong</Title>
        <Text>
          This page could not be shown. If rfckit was just updated, reloading fetches the new version.
        </Text>
        <div>
          <Button type="button" onClick={() => window.location.reload()}>
            Reload page
          </Button>
        </div>
      </Stack>
    );
  }
}
